import { serve } from "@app/service";
import { share } from "@shared";
import { upper } from "utils/str";
import { nope } from "@app/nope";

export function main() {
  serve();
  share();
  upper("x");
  nope();
}
