import { UserService } from "../services";

export class UserController {
  private service = new UserService();

  handle(id: string) {
    return this.service.find(id);
  }
}
