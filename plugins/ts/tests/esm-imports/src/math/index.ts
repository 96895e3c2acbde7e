export function add(a: number, b: number) {
  return a + b;
}
export function sum(xs: number[]) {
  return xs.reduce(add, 0);
}
