import { Component } from "react";
import { Animal } from "./base";

export class Dog extends Animal {
  constructor(n: string) {
    super(n);
  }
  sound() {
    return "woof";
  }
  speak() {
    return super.speak() + this.wag();
  }
  wag() {
    return "!";
  }
}

export class Puppy extends Dog {
  play() {
    this.wag();
    this.sound();
    Dog.create("rex");
    Animal.create("cat");
  }
  static make() {
    return this.create("pup");
  }
}

export class View extends Component {
  render() {
    this.setState({});
  }
}
