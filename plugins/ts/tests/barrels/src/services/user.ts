import { User } from "../models";
export function createUser(): User {
  return new User();
}
