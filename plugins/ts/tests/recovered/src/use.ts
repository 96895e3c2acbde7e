import { Crate, register } from './index'

export function again(): void {
  register().add('b')
  new Crate().open()
}
