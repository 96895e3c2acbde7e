import api, { Client } from "./default-api";

export function consume(c: Client) {
  api.hello();
  c.send();
  return new Client();
}
