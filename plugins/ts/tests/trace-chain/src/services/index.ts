export { UserService as UserService } from "./user.service";
