import { decode, sign, verify } from "./jwt";
import * as schemas from "./schemas";
import * as jwt from "./jwt";

export const Jwt = { sign, verify, read: decode };
const z = { ...schemas, number: verify, ...jwt };
export function use(): void {
  Jwt.sign("p");
  Jwt.read("t");
  z.string();
  z.number("x");
  z.decode("y");
}
