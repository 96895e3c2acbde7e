export class Widget {
  draw() {
    return <div />;
  }
}
