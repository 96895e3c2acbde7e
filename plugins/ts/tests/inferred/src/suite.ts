declare function describe(name: string, fn: () => void): void;
declare function it(name: string, fn: () => void): void;

class App {
  request(path: string): string {
    return path;
  }
}
class Other {
  request(path: string): number {
    return path.length;
  }
}

describe("suite", () => {
  const app = new Other();
  const build = (prefix: string) => {
    const made = new App();
    [1, 2].forEach((n) => {
      return n;
    });
    return made;
  };
  it("uses the built app", () => {
    const app = build("x");
    app.request("/");
  });
  app.request("/outer");
});
