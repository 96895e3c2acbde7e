export * from "./a";
export function fromB() {}
