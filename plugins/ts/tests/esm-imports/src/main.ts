import { parse } from "./util/parse.js";
import { Widget } from "./ui/widget.js";
import render from "./render";
import * as math from "./math";
import { sum as total } from "./math/index.js";
import { settings } from "./conf";
import { helper } from "./helpers.mjs";
import data from "./data.json";
import type { Opts } from "./types";

export function main(opts: Opts) {
  parse("x");
  new Widget().draw();
  render();
  math.add(1, 2);
  total([1]);
  settings();
  helper();
  data.load();
}
