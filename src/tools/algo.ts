// algo: graph algorithms on a plane — pagerank, degree, betweenness, components, louvain
// communities, shortest paths — run by graphology's packages (src/graph/algo.ts) on the plane's
// graph view restricted by labels and edge types. Answers are keys with scores, or groups with
// their sizes and first members; randomised ones are seeded, so the same call answers the same.
import * as z from "../model/zod.js";
import {
  type AlgoGraph,
  BETWEENNESS_WORK,
  restrictCached,
  runBetweenness,
  runComponents,
  runDegree,
  runLouvain,
  runPagerank,
  runShortestPath,
  topScores,
  UNRESOLVED,
} from "../graph/algo.js";
import { DrsgError } from "../model/errors.js";
import { AS_OF_INPUT, AS_OF_OUTPUT } from "./asof.js";
import { clipLines, freshnessLine, headerLines, resolveOne } from "./common.js";
import { nodeLine, planeOf } from "./graph_lines.js";
import { defineTool, structured, type ToolContext } from "./tool.js";

export const ALGOS = ["pagerank", "degree", "betweenness", "components", "louvain", "shortest_path"] as const;

const name = z.string().check(z.minLength(1), z.maxLength(1000));

const input = z.strictObject({
  plane: z.string().check(z.minLength(1), z.maxLength(200)),
  algo: z.enum(ALGOS),
  labels: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(32))).check(z.describe("keep nodes with these primary labels (default: all but UnresolvedRef)")),
  edge_types: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(32))).check(z.describe("keep edges of these types (default: all)")),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 20).check(z.describe("results (or groups) listed")),
  members: z._default(z.int().check(z.minimum(1), z.maximum(100)), 5).check(z.describe("members listed per component or community")),
  damping: z._default(z.number().check(z.gt(0), z.lt(1)), 0.85).check(z.describe("pagerank")),
  max_iters: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 100).check(z.describe("pagerank")),
  tolerance: z._default(z.number().check(z.gt(0), z.maximum(1)), 1e-6).check(z.describe("pagerank")),
  weighted: z._default(z.boolean(), false).check(z.describe("pagerank: weigh edges by their call sites (count); shortest_path: by the edges' numeric `weight` property (1 where absent)")),
  direction: z._default(z.enum(["in", "out", "both"]), "both").check(z.describe("degree")),
  kind: z._default(z.enum(["weak", "strong"]), "weak").check(z.describe("components")),
  resolution: z._default(z.number().check(z.gt(0), z.maximum(100)), 1).check(z.describe("louvain")),
  seed: z._default(z.int().check(z.minimum(0), z.maximum(2 ** 32 - 1)), 42).check(z.describe("louvain, sampled betweenness")),
  from: z.optional(name).check(z.describe("shortest_path: a key, key suffix or substring")),
  to: z.optional(name).check(z.describe("shortest_path")),
  directed: z._default(z.boolean(), true).check(z.describe("shortest_path, betweenness: follow edges only their way")),
  as_of: AS_OF_INPUT,
});

const scored = z.object({ key: z.string(), label: z.string(), id: z.int(), score: z.number(), degree: z.optional(z.int()) });
const group = z.object({ rank: z.int(), size: z.int(), members: z.array(z.string()) });

const output = z.object({
  plane: z.string(),
  synced: z.nullable(z.string()),
  algo: z.enum(ALGOS),
  /** The graph the algorithm ran on. */
  nodes: z.int(),
  edges: z.int(),
  labels: z.nullable(z.array(z.string())),
  edge_types: z.nullable(z.array(z.string())),
  results: z.optional(z.array(scored)),
  groups: z.optional(z.array(group)),
  /** Components or communities in all (groups lists the first `limit`). */
  count: z.optional(z.int()),
  singletons: z.optional(z.int()),
  modularity: z.optional(z.number()),
  seed: z.optional(z.int()),
  path: z.optional(z.object({ found: z.boolean(), nodes: z.array(z.string()), edges: z.array(z.string()), cost: z.nullable(z.number()) })),
  notes: z.array(z.string()),
  as_of: AS_OF_OUTPUT,
});

type Input = z.infer<typeof input>;

function keyOf(g: AlgoGraph, id: string): string {
  return g.getNodeAttribute(id, "key");
}

function resolveEnd(ctx: ToolContext, plane: ReturnType<typeof planeOf>, what: string, value: string | undefined): string | { text: string } {
  if (value === undefined) throw new DrsgError("BAD_INPUT", `algo shortest_path: pass \`${what}\` (a key, key suffix or substring)`);
  const r = resolveOne(ctx, plane, value);
  return "text" in r ? { text: `${what}: ${r.text}` } : String(r.node.id);
}

export const algo = defineTool({
  name: "algo",
  description:
    "Graph algorithms on a plane, by graphology: `pagerank` (damping, max_iters, tolerance, weighted), `degree` (direction), `betweenness` (exact on small graphs, a seeded sample of sources on large ones — said), `components` (kind weak | strong), `louvain` communities (resolution, seed), `shortest_path` (from, to, directed, weighted by the edges' `weight`). Restrict with `labels` and `edge_types` (e.g. edge_types [\"CALLS\"] for the call graph); results are keys with scores, or groups with sizes and first members, `limit` of them. Seeded: the same call gives the same answer.",
  input,
  output,
  readOnly: true,
  pure: true,
  hints: { title: "Graph algorithm" },
  cli: { positionals: ["algo"], summary: "Graph algorithms on a plane: pagerank, degree, betweenness, components, louvain, shortest_path." },
  run(ctx, inp: Input) {
    const p = planeOf(ctx, inp.plane);
    const view = ctx.views.get(p.name);
    const undirected = (inp.algo === "shortest_path" || inp.algo === "betweenness") && !inp.directed;
    const g = restrictCached(view, { labels: inp.labels, edgeTypes: inp.edge_types, undirected });
    const notes: string[] = [];
    const data: z.infer<typeof output> = {
      plane: p.name,
      synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null,
      algo: inp.algo,
      nodes: g.order,
      edges: g.size,
      labels: inp.labels?.length ? [...inp.labels].sort() : null,
      edge_types: inp.edge_types?.length ? [...inp.edge_types].sort() : null,
      notes,
    };
    const over =
      `over ${g.order} node(s) and ${g.size} edge(s) — labels: ${data.labels?.join(", ") ?? `all but ${UNRESOLVED}`}; ` +
      `edge types: ${data.edge_types?.join(", ") ?? "all"}${undirected ? "; edges taken both ways" : ""}`;
    const head = [...headerLines(ctx, p)];
    const body: string[] = [];
    const line = (id: string) => nodeLine(ctx, p.name, view, id);
    const scoreList = (scores: Record<string, number>, degree?: (id: string) => number) => {
      const top = topScores(g, scores, inp.limit);
      data.results = top.map((s) => ({
        key: keyOf(g, s.id),
        label: g.getNodeAttribute(s.id, "label"),
        id: Number(s.id),
        score: s.score,
        ...(degree ? { degree: degree(s.id) } : {}),
      }));
      top.forEach((s, i) => {
        body.push(`${i + 1}. ${line(s.id)}  ${s.score.toPrecision(4)}${degree ? `  (degree ${degree(s.id)})` : ""}`);
      });
      if (g.order > top.length) body.push(`… ${g.order - top.length} more node(s); raise limit (at most 1000) to see them`);
    };
    const groups = (list: string[][], what: string) => {
      data.count = list.length;
      const single = list.filter((c) => c.length === 1).length;
      data.singletons = single;
      data.groups = list.slice(0, inp.limit).map((c, i) => ({ rank: i + 1, size: c.length, members: topMembers(g, c, inp.members) }));
      body.push(`${list.length} ${what}(s), ${single} of a single node`);
      for (const gr of data.groups) {
        const more = gr.size > gr.members.length ? `, … ${gr.size - gr.members.length} more` : "";
        body.push(`${gr.rank}. ${gr.size} node(s): ${gr.members.join(", ")}${more}`);
      }
      if (list.length > inp.limit) body.push(`… ${list.length - inp.limit} more ${what}(s); raise limit to see them`);
    };
    switch (inp.algo) {
      case "pagerank": {
        head.push(`pagerank (damping ${inp.damping}${inp.weighted ? ", edges weighed by call sites" : ""}) ${over}`);
        scoreList(runPagerank(g, { damping: inp.damping, maxIterations: inp.max_iters, tolerance: inp.tolerance, weighted: inp.weighted }));
        break;
      }
      case "degree": {
        head.push(`degree centrality (${inp.direction === "both" ? "in + out" : inp.direction}; degree / (n − 1)) ${over}`);
        const d = runDegree(g, inp.direction);
        scoreList(d.centrality, d.degree);
        break;
      }
      case "betweenness": {
        const b = runBetweenness(g, inp.seed);
        data.seed = inp.seed;
        head.push(`betweenness centrality (normalised) ${over}`);
        if (!b.exact) {
          const n = `sampled: shortest paths from ${b.sources} of ${g.order} source nodes (seed ${inp.seed}), scaled — exact betweenness here would do ${g.order} × ${g.size + g.order} steps, above the ${BETWEENNESS_WORK} allowed; narrow with labels or edge_types for exact scores`;
          notes.push(n);
          head.push(n);
        }
        scoreList(b.scores);
        break;
      }
      case "components": {
        head.push(`${inp.kind === "weak" ? "weakly" : "strongly"} connected components ${over}`);
        groups(runComponents(g, inp.kind), "component");
        break;
      }
      case "louvain": {
        const c = runLouvain(g, { resolution: inp.resolution, seed: inp.seed });
        data.modularity = c.modularity;
        data.seed = inp.seed;
        head.push(`louvain communities (resolution ${inp.resolution}, seed ${inp.seed}; modularity ${c.modularity.toFixed(4)}) ${over}`);
        groups(c.communities, "community");
        break;
      }
      case "shortest_path": {
        const from = resolveEnd(ctx, p, "from", inp.from);
        const to = typeof from === "string" ? resolveEnd(ctx, p, "to", inp.to) : from;
        if (typeof from !== "string" || typeof to !== "string") {
          // A name that matched none or several: the candidates, as data too.
          const text = typeof to === "string" ? "" : to.text;
          notes.push(text);
          return structured(text, { ...data, path: { found: false, nodes: [], edges: [], cost: null } });
        }
        head.push(`shortest path${inp.weighted ? " (by weight)" : ""} ${over}`);
        const notIn = [from, to].filter((id) => !g.hasNode(id)).map((id) => view.getNodeAttribute(id, "key"));
        const path = notIn.length > 0 ? undefined : runShortestPath(g, from, to, inp.weighted);
        if (!path) {
          data.path = { found: false, nodes: [], edges: [], cost: null };
          body.push(`no path from ${line(from)} to ${line(to)}`);
          if (notIn.length > 0) body.push(`left out by the labels asked: ${notIn.join(", ")}`);
          else if (inp.directed) body.push("directed: false also follows edges against their direction");
          break;
        }
        data.path = { found: true, nodes: path.nodes.map((id) => keyOf(g, id)), edges: path.edges.map((e) => g.getEdgeAttribute(e, "type")), cost: path.cost };
        body.push(`${path.edges.length} hop(s)${inp.weighted ? `, cost ${path.cost}` : ""}:`);
        path.nodes.forEach((id, i) => {
          const via = i === 0 ? "" : `  ← ${g.getEdgeAttribute(path.edges[i - 1]!, "type")}`;
          body.push(`  ${line(id)}${via}`);
        });
        break;
      }
    }
    return structured(clipLines([...head, ...body].join("\n")), data);
  },
});

/** The `n` members of a group with the most edges inside the graph (ties by key). */
function topMembers(g: AlgoGraph, ids: string[], n: number): string[] {
  if (ids.length <= n) return ids.map((id) => keyOf(g, id));
  return ids
    .map((id) => ({ id, d: g.degree(id) }))
    .sort((a, b) => b.d - a.d || (keyOf(g, a.id) < keyOf(g, b.id) ? -1 : 1))
    .slice(0, n)
    .map((x) => keyOf(g, x.id));
}
