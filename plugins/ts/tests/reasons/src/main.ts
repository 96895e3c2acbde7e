import { Lib, missing, present } from "./lib";
import { gone } from "./gone";

export function main(x, cb: () => void, handlers: Record<string, () => void>, k: string) {
  x.go();
  handlers[k]();
  present()();
  cb();
  missing();
  gone();
  undefinedThing();
  parseInt("1");
  new Lib().nope();
  new Lib().ok();
}
