export class Context<E = unknown> {
  env?: E;
  text(body: string): string {
    return body;
  }
  json(body: object): string {
    return JSON.stringify(body);
  }
}
export type Next = () => Promise<void>;
export type Handler<E = unknown> = (c: Context<E>, next: Next) => string;
export type Middleware<E = unknown> = (c: Context<E>, next: Next) => Promise<void>;
export type H<E = unknown> = Handler<E> | Middleware<E>;
/** A type parameter named like a class shadows it. */
export type Shadow<Context> = (c: Context) => void;
export interface Socket {
  open(): void;
}
