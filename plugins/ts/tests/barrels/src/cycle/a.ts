export * from "./b";
export function fromA() {}
