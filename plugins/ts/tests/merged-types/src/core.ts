export interface $constructor<T> {
  new (def: unknown): T;
  init(inst: T, def: unknown): void;
}
export function $constructor<T>(name: string): $constructor<T> {
  return { name } as unknown as $constructor<T>;
}
export interface Schema {
  parse(data: unknown): unknown;
}
export const Schema: $constructor<Schema> = $constructor("Schema");
export interface Plain {
  parse(data: unknown): string;
}
export const plain = { parse: (data: unknown) => String(data) };
