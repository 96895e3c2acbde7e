export * from "./models";
export { createUser as makeUser } from "./services/user";
export * as util from "./util";
export { default as Thing } from "./thing";
import { helper } from "./helper";
export { helper };
