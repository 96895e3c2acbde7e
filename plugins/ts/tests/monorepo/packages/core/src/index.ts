export class Engine {
  run() {}
}
