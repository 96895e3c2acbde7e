import { UserController } from "./controllers";

export function main() {
  return new UserController().handle("1");
}
