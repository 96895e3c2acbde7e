// A plane as JSON Lines: nodes sorted by key, then edges sorted by (src key, type, dst key),
// property maps with sorted keys — two digests of one commit export byte-identical text.
import { DrsgError } from "../model/errors.js";
import type { Props } from "../model/facts.js";
import type { Reader } from "../store/types.js";
import { canonical } from "./apply.js";

function props(p: Props): string {
  return canonical(p);
}

export function* exportPlane(store: Reader, plane: string): Generator<string> {
  if (!store.getPlane(plane)) throw new DrsgError("PLANE_NOT_FOUND", `export: no plane '${plane}' — drsg plane list shows the planes`, { plane });
  const keyOf = new Map<number, string>();
  const nodes: { key: string; line: string }[] = [];
  for (const n of store.allNodes(plane)) {
    keyOf.set(n.id, n.key);
    nodes.push({
      key: n.key,
      line: `{"kind":"node","key":${JSON.stringify(n.key)},"labels":${JSON.stringify(n.labels)},"props":${props(n.props)}}`,
    });
  }
  nodes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const n of nodes) yield n.line;
  const edges: { sort: string; line: string }[] = [];
  for (const e of store.allEdges(plane)) {
    const s = keyOf.get(e.src) ?? `#${e.src}`;
    const d = keyOf.get(e.dst) ?? `#${e.dst}`;
    const p = props(e.props);
    edges.push({
      sort: `${s}\u0000${e.type}\u0000${d}\u0000${p}`,
      line: `{"kind":"edge","type":${JSON.stringify(e.type)},"src":${JSON.stringify(s)},"dst":${JSON.stringify(d)},"props":${p}}`,
    });
  }
  edges.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0));
  for (const e of edges) yield e.line;
}
