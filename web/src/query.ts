// Query: a cypher box (with the grammar hint the tool returns on a parse error, and this tab's
// statement history) when the server has a cypher tool; grep over the tree otherwise.
import { rpc } from "./api.js";
import { clear, h } from "./dom.js";
import { state } from "./state.js";

const HISTORY_KEY = "drsg-cypher-history";

/** The statement's field is `query` (as drsg's cypher tool takes it); `statement` is tried if the schema says otherwise. */
async function cypher(q: string): Promise<string> {
  try {
    return await rpc("cypher", { plane: state.plane, query: q });
  } catch (e) {
    if (e instanceof Error && /invalid params/.test(e.message) && /query/.test(e.message)) return rpc("cypher", { plane: state.plane, statement: q });
    throw e;
  }
}

export class QueryView {
  private readonly out: HTMLPreElement;
  private readonly past: HTMLElement;
  private readonly box: HTMLTextAreaElement | HTMLInputElement;
  readonly kind: "cypher" | "grep";

  constructor(el: HTMLElement) {
    this.kind = state.tools.has("cypher") ? "cypher" : "grep";
    this.out = h("pre", { class: "snippet result", id: "query-result", tabindex: "0", "aria-label": "result", "aria-live": "polite" });
    this.past = h("ul", { class: "plain past", "aria-label": "earlier statements" });
    if (this.kind === "cypher") {
      this.box = h("textarea", { id: "query-box", rows: "4", spellcheck: "false", placeholder: "MATCH (f:Function)-[:CALLS]->(g) RETURN f.key, g.key LIMIT 20" });
      this.box.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void this.run();
      });
    } else this.box = h("input", { id: "query-box", type: "search", placeholder: "text to find in the tree at the synced commit", autocomplete: "off" });
    const form = h(
      "form",
      { class: "search query", onsubmit: (e: Event) => (e.preventDefault(), void this.run()) },
      h("label", { for: "query-box" }, this.kind === "cypher" ? "cypher" : "grep"),
      this.box,
      h("button", { type: "submit" }, "Run"),
    );
    clear(
      el,
      h("h2", {}, "Query"),
      h("p", { class: "muted" }, this.kind === "cypher" ? "openCypher subset over the chosen plane (Ctrl+Enter runs). A parse error shows the grammar of the clauses the statement reached." : "This server has no cypher tool: grep searches the text of the plane's tree at its synced commit; each hit names the symbol it falls in."),
      form,
      this.out,
      this.kind === "cypher" ? h("h3", {}, "History") : null,
      this.past,
    );
    this.renderPast();
  }

  private history(): string[] {
    try {
      return JSON.parse(sessionStorage.getItem(HISTORY_KEY) ?? "[]") as string[];
    } catch {
      return [];
    }
  }

  private renderPast(): void {
    if (this.kind !== "cypher") return;
    clear(this.past, ...this.history().map((s) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => ((this.box.value = s), void this.run()) }, s))));
  }

  async run(): Promise<void> {
    const q = this.box.value.trim();
    if (!q) return;
    this.out.textContent = "…";
    this.out.classList.remove("error");
    try {
      this.out.textContent = this.kind === "cypher" ? await cypher(q) : await rpc("grep", { plane: state.plane, pattern: q, max_results: 100 });
    } catch (e) {
      this.out.classList.add("error");
      this.out.textContent = e instanceof Error ? e.message : String(e);
    }
    if (this.kind === "cypher") {
      const past = [q, ...this.history().filter((s) => s !== q)].slice(0, 30);
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(past));
      this.renderPast();
    }
  }
}
