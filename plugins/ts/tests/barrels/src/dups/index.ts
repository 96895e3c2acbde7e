export * from "./one";
export * from "./two";
