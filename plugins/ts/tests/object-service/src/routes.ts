import { api, userService } from "./user.service";
import * as svc from "./user.service";

export async function route() {
  await userService.getUser("1");
  svc.userService.list();
  api.get("/users");
}
