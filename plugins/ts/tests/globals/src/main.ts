import { Api } from "./api";

export async function main(api: Api) {
  await fetch("/x");
  api.fetch("/y");
  setTimeout(() => {}, 1);
  JSON.parse("{}");
  console.log("x");
  Promise.all([]);
  Math.max(1, 2);
  [3].map((x) => x);
  "abc".trim();
  const xs: string[] = [];
  xs.push("a");
  const m = new Map<string, number>();
  m.get("a");
  record();
}
