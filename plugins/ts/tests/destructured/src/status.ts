export class ParseStatus {
  dirty(): void {}
}
export class Ctx {
  log(): void {}
}
export function make(): Ctx {
  return new Ctx();
}
export function go(): void {}
