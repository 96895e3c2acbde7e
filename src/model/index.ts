// Re-exports of the model's types.
export * from "./errors.js";
export * from "./facts.js";
export type * from "./partial.js";
