export class UserEntity {
  email = "";
}
