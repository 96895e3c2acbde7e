import type { Alpha, Beta, Context } from './context'
import type { HandlerInterface, Middleware } from './types'

export class App {
  get!: HandlerInterface
  use(path: string, ...handlers: Middleware[]): App {
    return this
  }
  each(fn: (c: Context, i: number) => void, limit?: number): void {}
}

export function pick(cb: (a: Alpha) => void): void
export function pick(cb: (b: Beta) => void, n: number): void
export function pick(cb: ((a: Alpha) => void) | ((b: Beta) => void), n?: number): void {}

// Two call signatures that type the same argument differently.
export interface Either {
  (cb: (a: Alpha) => void): void
  (cb: (b: Beta) => void): void
}

// Call signatures returning classes: the argument count chooses those that fit.
export interface Split {
  (a: string): Alpha
  (a: string, b: string): Beta
  (...xs: string[]): Alpha
  <T>(a: string, b: string, c: T): T
}
