export * from "./user";
export * from "./post";
