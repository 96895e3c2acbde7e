import { type H, type Handler, type Shadow, type Socket } from "./context";

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
