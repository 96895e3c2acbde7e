export interface Client {
  timeout: number;
}

export class Client {
  send() {
    return this.timeout;
  }
}

export default {
  hello() {
    return this.world();
  },
  world: () => "world",
};
