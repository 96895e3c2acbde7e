import { User, Post, makeUser, util, Thing, helper } from "./index.js";
import { fromA, fromB, nowhere } from "./cycle/b";
import { same } from "./dups";

export function app() {
  const u = makeUser();
  u.rename("x");
  new User();
  new Post();
  util.slug("a");
  new Thing();
  helper();
  fromA();
  fromB();
  nowhere();
  same();
}
