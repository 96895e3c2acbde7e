declare function it(name: string, fn: () => void): void;
declare function describe(name: string, fn: () => void): void;

export function encode(s: string): string {
  return s;
}

it("one", () => {
  const encode = (s: string) => s.toUpperCase();
  encode("a");
});

it("two", () => {
  const encode = (n: number) => String(n);
  encode(1);
  function helper(): void {}
  helper();
});

describe("three", function () {
  function helper(): number {
    return 1;
  }
  helper();
  encode("top");
});

encode("module");
// @ts-expect-error a function declared in a block is not seen outside it
helper();
