export class Animal {
  constructor(public name: string) {}
  speak() {
    return this.sound();
  }
  sound() {
    return "...";
  }
  static create(n: string) {
    return new Animal(n);
  }
}
