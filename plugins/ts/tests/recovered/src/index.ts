export type * from './handlers'
export { Registry, register } from './handlers'
export { Crate } from './box'
