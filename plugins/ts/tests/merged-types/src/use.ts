import type { Schema } from "./core.js";
import * as core from "./core.js";
export const Checked: core.$constructor<Schema> = core.$constructor("Checked");
export function make(): Schema {
  return new core.Schema(1);
}
export function go(): void {
  const schema = make();
  schema.parse(1);
  Checked.init(schema, 1);
  core.Schema.init(schema, 2);
}
