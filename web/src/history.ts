// History: the history tool's answer (the _git plane: HEAD, branches, tags, newest commits) with
// every commit a button; choosing one shows what its fold changed (the fold log when this server
// folded it, and the tree diff against its parent from recall) and opens recall at it.
import { rpc, rpcJson } from "./api.js";
import { clear, h, showError } from "./dom.js";
import type { FoldEntry } from "./live.js";
import { state } from "./state.js";

export class HistoryView {
  private readonly list: HTMLElement;
  private readonly detail: HTMLElement;
  loaded = "";

  constructor(el: HTMLElement) {
    this.list = h("div", { class: "history-list" });
    this.detail = h("section", { class: "commit-detail", "aria-label": "commit", hidden: true });
    clear(el, h("h2", {}, "History"), h("div", { class: "split" }, h("div", { class: "left" }, this.list), this.detail));
  }

  async load(): Promise<void> {
    this.loaded = state.plane;
    try {
      const text = await rpc("history", { plane: state.plane, limit: 100 });
      const pre = h("div", { class: "history", role: "list" });
      for (const line of text.split("\n")) {
        const m = /^(\s*[*]?\s*)(.*?)\b([0-9a-f]{7,12})\b(.*)$/.exec(line);
        const isCommit = /^\s{2}[0-9a-f]{7,12}\s{2}\d{4}-/.test(line);
        if (m && (isCommit || /^[* ] |^\s{2}\S/.test(line))) {
          const sha = m[3]!;
          pre.append(h("div", { role: "listitem", class: isCommit ? "commit" : "ref" }, m[1]! + m[2]!, h("button", { type: "button", class: "sha", "aria-label": `commit ${sha}`, onclick: () => void this.open(sha) }, sha), m[4]!));
        } else pre.append(h("div", { role: "listitem", class: /:$/.test(line) ? "section" : "" }, line));
      }
      clear(this.list, pre);
    } catch (e) {
      showError(this.list, e);
    }
  }

  async open(sha: string): Promise<void> {
    const d = this.detail;
    d.hidden = false;
    const fold = h("div", {}, "…");
    const diff = h("pre", { class: "snippet", tabindex: "0", "aria-label": "changes" }, "…");
    const recallOut = h("pre", { class: "snippet", tabindex: "0", "aria-label": "recall" }, "");
    const name = h("input", { id: "recall-name", type: "text", placeholder: "file, dir, path:a-b or symbol", autocomplete: "off" });
    const form = h(
      "form",
      {
        class: "search",
        onsubmit: (e: Event) => {
          e.preventDefault();
          recallOut.textContent = "…";
          rpc("recall", { plane: state.plane, name: name.value, at: sha }).then(
            (t) => (recallOut.textContent = t),
            (err: Error) => (recallOut.textContent = err.message),
          );
        },
      },
      h("label", { for: "recall-name" }, `recall at ${sha}`),
      name,
      h("button", { type: "submit" }, "Recall"),
    );
    clear(d, h("div", { class: "ins-head" }, h("h3", {}, `commit ${sha}`), h("button", { type: "button", "aria-label": "close the commit", onclick: () => (d.hidden = true) }, "Close")), h("h4", {}, "What its fold changed"), fold, h("h4", {}, "Files changed against its parent"), diff, form, recallOut);
    try {
      const log = await rpcJson<{ entries: FoldEntry[] }>("fold_log", { limit: 200 });
      const mine = log.entries.filter((e) => e.to.startsWith(sha));
      if (mine.length === 0) clear(fold, h("p", { class: "muted" }, "this server did not fold this commit (it was folded before the server started, or in a full build): the tree diff below says what changed"));
      else
        clear(
          fold,
          h(
            "ul",
            { class: "plain" },
            ...mine.map((e) =>
              h("li", {}, `${e.kind}: ${e.files} file(s), ${e.facts} fact(s) changed in ${e.ms} ms${e.nodes ? ` — symbols added ${e.nodes.created}, changed ${e.nodes.patched}, removed ${e.nodes.deleted}` : ""}${e.edges ? `; edges +${e.edges.created} ~${e.edges.patched} −${e.edges.deleted}` : ""}`),
            ),
          ),
        );
    } catch (e) {
      showError(fold, e);
    }
    try {
      diff.textContent = await rpc("recall", { plane: state.plane, name: "", at: sha, vs: `${sha}~1` });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      // A root commit has no parent: everything in its tree is new (listed below).
      diff.textContent = /REV_NOT_FOUND/.test(msg) && msg.includes(`${sha}~1`) ? "the first commit of this history: every file in its tree (below) is new" : msg;
    }
    try {
      recallOut.textContent = await rpc("recall", { plane: state.plane, name: "", at: sha });
    } catch (e) {
      recallOut.textContent = e instanceof Error ? e.message : String(e);
    }
  }
}
