export class User {
  rename(name: string) {
    return name;
  }
}
