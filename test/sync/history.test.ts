// The `_git` history plane and the `history` verb on a scripted history: counts, HEAD, branches
// (locals first, HEAD marked), tags, the rebase with its caveat, newest commits with caps;
// append-only commits across folds; a bounded first read said in the ledger.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HEAD_KEY, commitKey, gitPlaneName, readGitPlane, writeGitPlane } from "../../src/git/plane.js";
import { GitRepo } from "../../src/git/repo.js";
import { exportPlane } from "../../src/sync/export.js";
import type { Store } from "../../src/store/types.js";
import { digest } from "../../src/sync/digest.js";
import { history } from "../../src/tools/history.js";
import { git, makeRepo } from "../git/fixture.js";
import { type FixtureHistory, makeShopHistory, shopDirs } from "./history-fixture.js";
import { callTool, cleanupAll, closePool, officialSet, openSync, sharedPool, temp, tempStore, toolCtx } from "./helpers.js";

let fx: FixtureHistory;
let store: Store;

before(async () => {
  const { dir, subDir } = shopDirs(temp("drsg-hist-"));
  fx = makeShopHistory(dir, subDir);
  store = tempStore().store;
  await digest({ dir, plugins: officialSet(), plane: "shop", store, pool: sharedPool() });
});
after(async () => {
  store.close();
  await closePool();
  cleanupAll();
});

/** A history plane's branches, tags and HEAD with their edges, as text (node ids left out). */
function movingPart(s: Store, g: string): string[] {
  const out: string[] = [];
  for (const label of ["Branch", "Tag", "Head"]) {
    for (const n of s.nodesByLabel(g, label)) {
      out.push(`${n.key} ${JSON.stringify(n.props)}`);
      for (const e of s.edgesOut(g, n.id)) out.push(`${n.key} -${e.type}-> ${s.getNode(g, e.dst)?.key} ${JSON.stringify(e.props)}`);
    }
  }
  return out.sort();
}

/** What a first read of the repository at `dir` writes for them (a fresh store). */
async function movingPartAfresh(dir: string): Promise<string[]> {
  const { store: s } = tempStore();
  try {
    const sync = await openSync(s, dir, { plane: "shop" });
    await sync.syncToHead();
    await sync.close();
    return movingPart(s, "shop_git");
  } finally {
    s.close();
  }
}

async function run(input: Record<string, unknown>): Promise<string> {
  const r = await callTool(toolCtx(store), history, input);
  assert.equal(r.isError, false, r.text);
  return r.text;
}

describe("the _git plane", () => {
  test("digest --apply writes commits, refs, HEAD and the rebase beside the code plane", () => {
    const g = gitPlaneName("shop");
    assert.ok(store.getPlane(g));
    const last = store.getNodeByKey(g, commitKey(fx.sha.last!))!;
    assert.deepEqual(last.labels, ["Commit"]);
    assert.equal(last.props.summary, "cart clear");
    assert.equal(last.props.short, fx.sha.last!.slice(0, 7));
    assert.equal(last.props.committed_at, "2024-01-16T12:00:00Z");
    assert.equal(last.props.is_merge, false);
    assert.equal(last.props._generated_by, "git");
    const merge = store.getNodeByKey(g, commitKey(fx.sha.merge!))!;
    assert.deepEqual(merge.labels, ["Commit", "Merge"]);
    const parents = store.edgesOut(g, merge.id, "PARENT").map((e) => [store.getNode(g, e.dst)!.props.sha, e.props.order]);
    assert.deepEqual(parents.sort((a, b) => Number(a[1]) - Number(b[1])), [
      [fx.sha.docs, 1],
      [fx.sha.feature, 2],
    ]);
    const head = store.getNodeByKey(g, HEAD_KEY)!;
    assert.equal(head.props.sha, fx.sha.last);
    assert.equal(head.props.branch, "main");
    const tip = store.edgesOut(g, head.id, "TIP");
    assert.equal(store.getNode(g, tip[0]!.dst)!.key, commitKey(fx.sha.last!));
    const v1 = store.getNodeByKey(g, "tag:v1.0")!;
    assert.equal(v1.props.target, fx.sha.merge);
    assert.equal(typeof v1.props.tagged_ts, "number", "annotated tag keeps its tagger date");
    const rebase = store.nodesByLabel(g, "Rebase");
    assert.equal(rebase.length, 1);
    assert.equal(rebase[0]!.props.branch, "topic");
    assert.equal(rebase[0]!.props.completed, true);
    assert.equal(rebase[0]!.props.onto, fx.sha["main-more"]);
    assert.deepEqual(rebase[0]!.props.replaced, [fx.sha.topic]);
    const onto = store.edgesOut(g, rebase[0]!.id, "ONTO");
    assert.equal(store.getNode(g, onto[0]!.dst)!.props.sha, fx.sha["main-more"]);
    const replaced = store.edgesOut(g, rebase[0]!.id, "REPLACED");
    assert.equal(store.getNode(g, replaced[0]!.dst)!.props.sha, fx.sha.topic, "the replaced commit is kept as history");
    const ledger = store.getPlane(g)!.props.ledger as Record<string, unknown>;
    assert.equal(ledger.truncated, false);
  });

  test("a first write in batches leaves what the general write leaves", async () => {
    const repo = (await GitRepo.find(fx.dir))!;
    const exported: string[] = [];
    for (const precreate of [false, true]) {
      const s = tempStore().store;
      try {
        const delta = await readGitPlane(repo, s, "h_git");
        s.write((w) => {
          // A plane already there (empty) takes the general path: look up, then create one by one.
          if (precreate) w.createPlane("h_git");
          writeGitPlane(w, delta);
        });
        exported.push([...exportPlane(s, "h_git")].join("\n"));
      } finally {
        s.close();
      }
    }
    assert.ok(exported[0]!.includes('"type":"PARENT"') && exported[0]!.includes('"kind":"node","key":"commit:'));
    assert.equal(exported[0], exported[1]);
  });

  test("history: counts, HEAD, branches locals first with HEAD marked, tags, rebase caveat, newest commits", async () => {
    const text = await run({ plane: "shop" });
    const lines = text.split("\n");
    assert.match(lines[0]!, /^synced: commit [0-9a-f]{12}$/, "opens with the freshness line");
    assert.match(text, /^16 commit\(s\), 1 of them merges; 4 branch\(es\), 2 tag\(s\), 1 rebase\(s\)$/m);
    assert.match(text, /^1 commit\(s\) are no longer reachable/m, "the commit the rebase replaced");
    assert.match(text, new RegExp(`^HEAD: on main at ${fx.sha.last!.slice(0, 7)}  cart clear$`, "m"));
    const b = lines.indexOf("branches (4 shown of 4):");
    assert.ok(b > 0, text);
    assert.deepEqual(lines.slice(b + 1, b + 5).map((l) => l.slice(0, 2) + l.slice(2).split(/\s+/)[0]), ["  feature", "* main", "  topic", "  origin/main"]);
    assert.match(text, /^tags \(newest 2 of 2\):\n {2}v1\.0 /m);
    assert.match(text, /^rebases \(1\):\n {2}topic {2}2024-01-13 {2}1 step\(s\) onto [0-9a-f]{7}, completed, replaced 1 commit\(s\)/m);
    assert.match(text, /reconstructed from the local reflog.*best-effort/);
    assert.match(text, /^commits \(newest 15 of 15 reachable\):\n {2}[0-9a-f]{7} {2}2024-01-16 {2}t {18}cart clear$/m);
    assert.match(text, /merge feature {2}\[merge\]$/m);
    assert.doesNotMatch(text, /… and/);
  });

  test("history takes the _git plane too, and a limit", async () => {
    const text = await run({ plane: "shop_git", limit: 2 });
    assert.match(text, /^synced: commit /);
    assert.match(text, /^commits \(newest 2 of 15 reachable\):/m);
    assert.match(text, /… and 13 more/);
  });

  test("a plane without history says how one is made", async () => {
    store.write((w) => w.createPlane("notes"));
    const text = await run({ plane: "notes" });
    assert.match(text, /no history plane: notes_git is written beside a code plane/);
    const bad = await callTool(toolCtx(store), history, { plane: "nope" });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /PLANE_NOT_FOUND/);
  });
});

describe("history follows folds", () => {
  test("append-mostly: commits are never rewritten, refs move, a new branch alone updates history", async () => {
    const { dir, subDir } = shopDirs(temp("drsg-hist2-"));
    const h = makeShopHistory(dir, subDir);
    const { store: s } = tempStore();
    const sync = await openSync(s, dir, { plane: "shop" });
    await sync.syncToHead();
    const g = sync.gitPlane;
    const before = new Map([...s.allNodes(g)].filter((n) => n.labels[0] === "Commit").map((n) => [n.key, n]));
    const [c] = makeRepo(dir, [{ files: { "src/new.ts": "export const n = 1;\n" }, message: "new file" }]);
    const r = await sync.syncToHead();
    assert.equal(r.kind, "fold");
    assert.equal(r.history?.commits, 1);
    for (const [k, n] of before) {
      const now = s.getNodeByKey(g, k)!;
      assert.equal(now.id, n.id, "commit nodes keep their ids");
      assert.deepEqual(now.props, n.props, "and are never rewritten");
    }
    assert.equal(s.getNodeByKey(g, "branch:main")!.props.tip, c);
    // Reset back: the new commit stays (now unreachable), HEAD and main move back.
    git(dir, ["reset", "-q", "--hard", h.sha.last!]);
    await sync.syncToHead();
    assert.ok(s.getNodeByKey(g, commitKey(c!)));
    assert.equal(s.getNodeByKey(g, "head")!.props.sha, h.sha.last);
    // A branch and a tag created without moving HEAD: the history plane only.
    git(dir, ["branch", "hotfix", h.sha.merge!]);
    git(dir, ["tag", "v9", h.sha.base!]);
    const hist = await sync.refreshHistory();
    assert.ok(hist && hist.facts > 0);
    assert.equal(s.getNodeByKey(g, "branch:hotfix")!.props.tip, h.sha.merge);
    assert.equal(s.getNodeByKey(g, "tag:v9")!.props.target, h.sha.base);
    assert.deepEqual(movingPart(s, g), await movingPartAfresh(dir), "refs and their edges as a first read writes them");
    // A tag moved, a new commit on a branch HEAD is not on (a tip that moved is walked again).
    git(dir, ["tag", "-f", "v9", h.sha.last!]);
    git(dir, ["checkout", "-q", "-b", "side", h.sha.merge!]);
    const [side] = makeRepo(dir, [{ files: { "side.txt": "side\n" }, message: "side" }]);
    git(dir, ["checkout", "-q", "-"]);
    await sync.refreshHistory();
    assert.ok(s.getNodeByKey(g, commitKey(side!)), "the new branch's commit is read");
    assert.deepEqual(movingPart(s, g), await movingPartAfresh(dir), "after a moved tag and a new branch");
    git(dir, ["branch", "-q", "-D", "hotfix"]);
    await sync.refreshHistory();
    assert.equal(s.getNodeByKey(g, "branch:hotfix"), undefined, "a deleted branch goes");
    assert.deepEqual(movingPart(s, g), await movingPartAfresh(dir), "after a deleted branch");
    assert.equal(await sync.refreshHistory(), undefined, "an unchanged repository writes nothing");
    await sync.close();
    s.close();
  });

  test("the first read is bounded, and the ledger says so", async () => {
    const { dir, subDir } = shopDirs(temp("drsg-hist3-"));
    makeShopHistory(dir, subDir);
    const { store: s } = tempStore();
    const sync = await openSync(s, dir, { plane: "shop", maxCommits: 5 });
    await sync.syncToHead();
    const g = s.getPlane("shop_git")!;
    assert.equal(s.nodesByLabel("shop_git", "Commit").length, 5);
    const ledger = g.props.ledger as Record<string, unknown>;
    assert.equal(ledger.truncated, true);
    assert.equal(ledger.max_commits, 5);
    const text = (await callTool(toolCtx(s), history, { plane: "shop" })).text;
    assert.match(text, /note: history read newest first up to 5 commits/);
    // A commit after it adds that commit: the older ones stay out (not read back a window at a time).
    makeRepo(dir, [{ files: { "later.txt": "later\n" }, message: "later" }]);
    const r = await sync.syncToHead();
    assert.equal(r.history?.commits, 1, JSON.stringify(r.history));
    assert.equal(s.nodesByLabel("shop_git", "Commit").length, 6);
    await sync.close();
    s.close();
  });
});
