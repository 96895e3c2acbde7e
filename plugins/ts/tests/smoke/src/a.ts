import { helper } from "./b.js";

// @fact node plugins-smoke/src/a.run Function
export function run() {
  helper(); // @fact edge CALLS smoke/src/a.run -> smoke/src/b.helper by=import
}
