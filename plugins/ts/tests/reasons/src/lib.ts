export class Lib {
  ok() {}
}
export function present() {}
