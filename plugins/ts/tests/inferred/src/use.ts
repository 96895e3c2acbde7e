import * as z from "./index";
import { string } from "./types";

export function use(): void {
  z.string().min(1).max(5).trim().parse("x");
  string().min(2);
  z.object({}).strict().parse({});
  z.object({}).either(true).parse({});
  z.object({}).maybe(true).parse({});
  z.object({}).later().parse({});
  z.object({}).each([]).parse({});
}
