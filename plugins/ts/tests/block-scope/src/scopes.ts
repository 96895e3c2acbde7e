export class Foo { m() {} }
export class Bar { m() {} }
export function f(x: Foo, items: Bar[]) {
  items.forEach((x) => x.m());
  x.m();
  {
    const y = new Bar();
    y.m();
  }
  {
    const y = new Foo();
    y.m();
  }
  try { x.m(); } catch (x) { x.m(); }
  for (const z of items) z.m();
  const z = new Foo();
  z.m();
}
