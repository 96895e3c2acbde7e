export class ZodString {
  private checks: string[] = [];
  static create(): ZodString {
    return new ZodString();
  }
  _addCheck(check: string): ZodString {
    const next = new ZodString();
    next.checks = [...this.checks, check];
    return next;
  }
  min(n: number) {
    return this._addCheck(`min:${n}`);
  }
  max(n: number) {
    return this._addCheck(`max:${n}`);
  }
  trim() {
    return this;
  }
  parse(input: string): string {
    return input;
  }
}

export class ZodObject {
  static create = (shape: object) => new ZodObject(shape);
  constructor(readonly shape: object) {}
  strict() {
    return new ZodObject(this.shape);
  }
  /** Two returns proving two classes: not inferred. */
  either(flag: boolean) {
    if (flag) return new ZodObject(this.shape);
    return new ZodString();
  }
  /** A bare return beside one that proves a class: not inferred. */
  maybe(flag: boolean) {
    if (flag) return;
    return new ZodObject(this.shape);
  }
  /** async: the result is a Promise, not the class. */
  async later() {
    return new ZodObject(this.shape);
  }
  /** A return inside a callback is the callback's. */
  each(list: string[]) {
    list.forEach((x) => {
      return new ZodString();
    });
    return undefined;
  }
  parse(input: object): object {
    return input;
  }
}

const stringType = ZodString.create;
const objectType = ZodObject.create;
let mutable = ZodString.create;
mutable = () => new ZodString();

export function local(): void {
  stringType().min(1);
  mutable().min(1);
}

export { objectType as object, stringType as string };
