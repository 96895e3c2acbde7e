export * from "./user.controller";
