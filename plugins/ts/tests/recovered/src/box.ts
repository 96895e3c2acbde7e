// Variance annotations (TypeScript 4.7), commented.
export interface Box<
  /** a comment before the annotation */
  out T,
  in U = unknown,
> {
  get(): T
  put(u: U): void
}

export class Crate {
  open(): Crate {
    return this
  }
}
