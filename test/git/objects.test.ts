// Commits, trees and tags read by our own means (src/git/objects.ts through GitRepo) against
// isomorphic-git's readCommit / readTree on the same objects: loose, then packed with deltas.
import assert from "node:assert/strict";
import fs, { chmodSync } from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import git from "isomorphic-git";
import { parseCommit, parseTag, parseTree } from "../../src/git/objects.js";
import { GitRepo } from "../../src/git/repo.js";
import { git as gitCli, makeRepo, tempDir } from "./fixture.js";

const temps: Array<() => void> = [];
after(() => {
  for (const c of temps) c();
});

/** A repository with the shapes that differ between git's order and isomorphic-git's, and commits with odd headers. */
function oddRepo(): { dir: string; tag: string; crafted: string[]; withSub: string } {
  const t = tempDir("drsg-objects-");
  temps.push(t.cleanup);
  const dir = t.dir;
  const [c0] = makeRepo(dir, [
    {
      files: {
        "a.b": "dot\n",
        "a/x.ts": "export const x = 1;\n",
        "a-z/y.ts": "y\n",
        "ünïcode.ts": "u\n",
        "sp ace.ts": "s\n",
        "trailing.": "t\n",
        "run.sh": "#!/bin/sh\n",
        "link.ts": { symlink: "a/x.ts" },
      },
      message: "one",
    },
    { files: { "b.ts": "b\n" }, message: "two", branch: "side" },
  ]);
  gitCli(dir, ["checkout", "-q", "main"]);
  makeRepo(dir, [{ files: { "run.sh": "#!/bin/sh\necho\n" }, message: "three" }]);
  chmodSync(path.join(dir, "run.sh"), 0o755);
  gitCli(dir, ["add", "run.sh"]);
  gitCli(dir, ["update-index", "--add", "--cacheinfo", `160000,${c0},ext/sub`]);
  gitCli(dir, ["commit", "-q", "-m", "sub"]);
  const withSub = gitCli(dir, ["rev-parse", "HEAD^{tree}"]);
  makeRepo(dir, [{ files: {}, message: "merge side", merge: "side", tag: "v1", tagMessage: "release one" }]);
  const head = gitCli(dir, ["rev-parse", "HEAD"]);
  const tree = gitCli(dir, ["rev-parse", "HEAD^{tree}"]);
  // Headers git writes but never reads, continuation lines, CR and blank lines in the message,
  // a second author (the first wins) and a `tree` after the parents (not the commit's tree).
  const bodies = [
    `tree ${tree}\nparent ${head}\nauthor A U <a@x> 1704110400 +0130\ncommitter C <c@x> 1704110500 -0000\nencoding ISO-8859-1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\n\n\nsubject\r\nbody\n\n\n`,
    `tree ${tree}\nparent ${head}\nparent ${c0}\ntree ${c0}\nauthor First <f@x> 1704110600 -0800\nauthor Second <s@x> 1 +0000\ncommitter C <c@x> 1704110700 +0000\nmergetag object ${c0}\n type commit\n\nno newline at the end`,
  ];
  const crafted: string[] = [];
  for (const [i, body] of bodies.entries()) {
    const file = path.join(dir, `.git/crafted-${i}`);
    fs.writeFileSync(file, body);
    const sha = gitCli(dir, ["hash-object", "--literally", "-t", "commit", "-w", file]);
    gitCli(dir, ["update-ref", `refs/heads/crafted-${i}`, sha]);
    crafted.push(sha);
  }
  gitCli(dir, ["tag", "light", c0!]);
  return { dir, tag: gitCli(dir, ["rev-parse", "refs/tags/v1"]), crafted, withSub };
}

function objectsOf(dir: string, type: string): string[] {
  return gitCli(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"])
    .split("\n")
    .filter((l) => l.endsWith(` ${type}`))
    .map((l) => l.split(" ")[0]!);
}

const fields = (c: { tree: string; parent: string[]; author: unknown; committer: unknown; message: string; gpgsig?: string }) => ({
  tree: c.tree,
  parent: c.parent,
  author: c.author,
  committer: c.committer,
  message: c.message,
  gpgsig: c.gpgsig,
});

async function sameAsIsomorphicGit(dir: string, tag: string): Promise<{ commits: number; trees: number }> {
  const repo = (await GitRepo.find(dir))!;
  const cache = {};
  const own = repo as unknown as {
    readCommitFor(oid: string, rev: string): Promise<{ oid: string; commit: Parameters<typeof fields>[0] }>;
    readTreeEntries(oid: string): Promise<unknown[]>;
  };
  const commits = [...objectsOf(dir, "commit"), tag];
  for (const oid of commits) {
    const mine = await own.readCommitFor(oid, oid);
    const theirs = await git.readCommit({ fs, dir, cache, oid });
    assert.equal(mine.oid, theirs.oid, oid);
    assert.deepEqual(fields(mine.commit), fields(theirs.commit), oid);
  }
  const trees = objectsOf(dir, "tree");
  for (const oid of trees) assert.deepEqual(await own.readTreeEntries(oid), (await git.readTree({ fs, dir, cache, oid })).tree, oid);
  return { commits: commits.length, trees: trees.length };
}

test("commits (tags peeled) and trees read as isomorphic-git reads them, loose and packed", async () => {
  const { dir, tag, crafted, withSub } = oddRepo();
  const loose = await sameAsIsomorphicGit(dir, tag);
  assert.ok(loose.commits >= 7 && loose.trees >= 6, JSON.stringify(loose));
  gitCli(dir, ["gc", "-q", "--aggressive"]);
  assert.equal(objectsOf(dir, "commit").length + 1, loose.commits);
  await sameAsIsomorphicGit(dir, tag);
  // The odd objects are read by our own parser, not handed to isomorphic-git.
  const repo = (await GitRepo.find(dir))!;
  const raw = repo as unknown as { ownObject(oid: string): Promise<{ type: string; data: Buffer } | undefined> };
  for (const sha of crafted) {
    const o = await raw.ownObject(sha);
    assert.equal(o?.type, "commit");
    assert.ok(parseCommit(o!.data.toString("utf8")), sha);
  }
  // Tags: the annotated one peeled to its commit with its tagger's time, the lightweight one as is.
  const v1 = await git.readTag({ fs, dir, oid: tag });
  assert.deepEqual(await repo.tags(), [
    { name: "light", sha: gitCli(dir, ["rev-parse", "light"]) },
    { name: "v1", sha: v1.tag.object, taggedTs: v1.tag.tagger.timestamp },
  ]);
  const root = await raw.ownObject(withSub);
  const entries = parseTree(root!.data);
  assert.deepEqual(
    entries?.map((e) => `${e.mode} ${e.type} ${e.path}`),
    [
      "040000 tree a",
      "040000 tree a-z",
      "100644 blob a.b",
      "040000 tree ext",
      "120000 blob link.ts",
      "100755 blob run.sh",
      "100644 blob sp ace.ts",
      "100644 blob trailing.",
      "100644 blob ünïcode.ts",
    ],
  );
});

test("what the parsers do not read exactly is left to isomorphic-git", () => {
  const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  // No author, a header before `tree`, no blank line: each undefined.
  assert.equal(parseCommit(`tree ${tree}\ncommitter C <c@x> 1 +0000\n\nm\n`), undefined);
  assert.equal(parseCommit(`author A <a@x> 1 +0000\ntree ${tree}\ncommitter C <c@x> 1 +0000\n\nm\n`), undefined);
  assert.equal(parseCommit(`tree ${tree}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000`), undefined);
  assert.equal(parseCommit(`tree ${tree}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 nozone\n\nm\n`), undefined);
  assert.deepEqual(parseTag(`object ${tree}\ntype tree\ntag t\ntagger T <t@x> 5 +0100\n\nm\n`), {
    object: tree,
    tagger: { name: "T", email: "t@x", timestamp: 5, timezoneOffset: -60 },
  });
  assert.equal(parseTag(`type tree\ntag t\n\nm\n`), undefined);
  assert.equal(parseTag(`object ${tree}\ntagger nobody\n\nm\n`), undefined);
  const entry = (mode: string, name: string | Buffer) =>
    Buffer.concat([Buffer.from(`${mode} `), Buffer.isBuffer(name) ? name : Buffer.from(name), Buffer.from([0]), Buffer.alloc(20, 1)]);
  assert.equal(parseTree(entry("100644", "ok.ts"))?.length, 1);
  // A mode git does not write, a name isomorphic-git checks itself, bytes that are not UTF-8, a cut entry.
  assert.equal(parseTree(entry("100664", "ok.ts")), undefined);
  for (const name of [".git", ".GIT. ", "git~1", "a:b", "..", "...", "x\\y"]) assert.equal(parseTree(entry("100644", name)), undefined, name);
  assert.equal(parseTree(entry("100644", Buffer.from([0x61, 0xff]))), undefined);
  assert.equal(parseTree(entry("100644", "ok.ts").subarray(0, 20)), undefined);
  // A long run of dots is checked in linear time.
  assert.equal(parseTree(entry("100644", `${".".repeat(100_000)}x`))?.length, 1);
});

test("refs: a loose file wins over packed-refs, a packed one is found, a symbolic one followed — as isomorphic-git resolves them", async () => {
  const { dir } = oddRepo();
  gitCli(dir, ["pack-refs", "--all"]);
  // After packing: move main on (a loose file again, newer than its packed line) and add a symbolic branch.
  makeRepo(dir, [{ files: { "later.ts": "l\n" }, message: "later" }]);
  gitCli(dir, ["symbolic-ref", "refs/heads/alias", "refs/heads/main"]);
  const repo = (await GitRepo.find(dir))!;
  const branches = await repo.branches();
  const tags = await repo.tags();
  assert.deepEqual(
    branches.map((b) => b.name),
    ["alias", "crafted-0", "crafted-1", "main", "side"],
  );
  for (const b of branches) assert.equal(b.sha, await git.resolveRef({ fs, dir, ref: `refs/heads/${b.name}` }), b.name);
  assert.equal(branches.find((b) => b.name === "main")!.sha, gitCli(dir, ["rev-parse", "main"]));
  assert.equal(branches.find((b) => b.name === "alias")!.sha, gitCli(dir, ["rev-parse", "main"]));
  assert.deepEqual(
    tags.map((t) => [t.name, t.sha]),
    [
      ["light", gitCli(dir, ["rev-parse", "light"])],
      ["v1", gitCli(dir, ["rev-parse", "v1^{commit}"])],
    ],
  );
  assert.equal(await repo.resolve("side"), gitCli(dir, ["rev-parse", "side"]));
  assert.equal(await repo.head(), gitCli(dir, ["rev-parse", "HEAD"]));
});
