import { Client, Parse, make, string } from "./client";

export function use(client: Client, doc: string): void {
  client.getFeature("definition").getProvider(doc);
  client.feature().getProvider(doc);
  client.feature("definition", true).getProvider(doc);
  client.same("x").getProvider(doc);
  make("hover").getProvider(doc);
  Parse(doc);
}

export function strings(doc: string): void {
  string().getProvider(doc);
  string<"a">().getProvider(doc);
  const s = string();
  s.getProvider(doc);
}
