export interface HoverProvider {
  provideHover(): string;
}
export interface DefinitionProvider {
  provideDefinition(): string;
}
export class HoverFeature {
  getProvider(doc: string): HoverProvider | undefined {
    return doc ? undefined : undefined;
  }
}
export class DefinitionFeature {
  getProvider(doc: string): DefinitionProvider | undefined {
    return doc ? undefined : undefined;
  }
}
export class Client {
  getFeature(kind: "hover"): HoverFeature;
  getFeature(kind: "definition"): DefinitionFeature;
  getFeature(kind: string): HoverFeature | DefinitionFeature {
    return kind === "hover" ? new HoverFeature() : new DefinitionFeature();
  }
  /** One overload per arity: the argument count chooses it. */
  feature(): HoverFeature;
  feature(kind: string, strict: boolean): DefinitionFeature;
  feature(kind?: string, strict?: boolean): HoverFeature | DefinitionFeature {
    return kind && strict ? new DefinitionFeature() : new HoverFeature();
  }
  /** Overloads that agree on the return type. */
  same(a: string): HoverFeature;
  same(a: number): HoverFeature;
  same(a: unknown): HoverFeature {
    return a ? new HoverFeature() : new HoverFeature();
  }
}

export function make(kind: "hover"): HoverFeature;
export function make(kind: "definition"): DefinitionFeature;
export function make(kind: string): HoverFeature | DefinitionFeature {
  return kind === "hover" ? new HoverFeature() : new DefinitionFeature();
}

/** Declaration merging: an interface and a function of one name. */
export interface Parse {
  strict: boolean;
}
export function Parse(text: string): string {
  return text;
}

/** Overloads with one parameter list: the compiler takes the first, unless type arguments are passed. */
export function string(params?: string): HoverFeature;
export function string<T extends string>(params?: string): DefinitionFeature;
export function string(params?: string): HoverFeature | DefinitionFeature {
  return params ? new HoverFeature() : new DefinitionFeature();
}
