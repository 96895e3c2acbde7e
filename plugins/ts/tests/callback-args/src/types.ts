import type { Context, Next } from './context'
import type { App } from './app'

export type Handler<E = unknown> = (c: Context, next: Next) => E
export type Middleware<E = unknown> = (c: Context, next: Next) => Promise<E | void>
export type H<E = unknown> = Handler<E> | Middleware<E>

// Generic call signatures, as a web framework writes its route methods.
export interface HandlerInterface<E = unknown> {
  <M1 extends H<E> = H<E>>(handler: M1): App

  <P extends string, M1 extends H<E> = H<E>>(path: P, handler: H<E> & M1): App

  <M1 extends H<E> = H<E>, M2 extends H<E> = H<E>>(...handlers: [H<E> & M1, H<E> & M2]): App
}
