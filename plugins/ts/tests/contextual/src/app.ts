import { type Context, type H, type Handler, type Middleware, type Shadow, type Socket } from "./context";

export const notFound: Handler = (c) => c.text("404");
export const logger: H = async (c, next) => {
  c.json({});
  await next();
};
export const shadowed: Shadow<number> = (c) => {
  c.toFixed();
};
export class Routes {
  onError: Handler = (c) => c.json({ error: true });
}
const impl = {
  open(): void {},
};
export const socket: Socket = {
  open(): void {
    impl.open();
  },
};
export function use(): void {
  socket.open();
}
export class Item {
  foo(): void {}
}
export const curried: Shadow<Item> = (c) => (x) => x.toFixed();
export const bare: Handler = (c) => [1].map((x) => x.toFixed()).join() + c.text("");
export const curried2 = ((c: Context) => (x: unknown) => c.text(String(x))) as unknown;
export const bare2: Middleware = c => next => next.text("");
