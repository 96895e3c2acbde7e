import { Jwt } from "./index";
export function elsewhere(): void {
  Jwt.verify("t");
}
