import { BaseService } from "./base.service";

export class UserService extends BaseService {
  find(id: string) {
    return this.load(id);
  }
}
