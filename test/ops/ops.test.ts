// The _ops plane and `deployed`: real manifests in a real git history — a Kubernetes deployment
// pinned to a commit sha, one to `latest`, a compose service pinned to a digest, a Job pinned to
// a version tag — plus Kustomize overrides, Helm values, Dockerfile stages and bad input.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { parseImage, tagMeaning } from "../../src/ops/image.js";
import { isManifestPath, opsFacts } from "../../src/ops/manifests.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { deployed } from "../../src/tools/deployed.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git, makeRepo } from "../git/fixture.js";

describe("image references", () => {
  test("parse registry, repository, tag and digest; read what the tag says", () => {
    assert.deepEqual(parseImage("ghcr.io/acme/api:main-3f2a1bc"), {
      reference: "ghcr.io/acme/api:main-3f2a1bc",
      registry: "ghcr.io",
      repository: "acme/api",
      tag: "main-3f2a1bc",
    });
    assert.deepEqual(parseImage("localhost:5000/x"), { reference: "localhost:5000/x", registry: "localhost:5000", repository: "x" });
    assert.equal(parseImage("Not An Image"), undefined);
    assert.equal(parseImage(`a/${"b".repeat(10_000)}:1`), undefined);
    assert.deepEqual(tagMeaning(parseImage("x:3f2a1bc")!), { kind: "revision", hex: "3f2a1bc" });
    assert.deepEqual(tagMeaning(parseImage("x:v1.4.2")!), { kind: "version", version: "v1.4.2" });
    assert.equal(tagMeaning(parseImage("x:latest")!).kind, "floating");
    assert.equal(tagMeaning(parseImage("x")!).kind, "floating");
    assert.equal(tagMeaning(parseImage(`x@sha256:${"a".repeat(64)}`)!).kind, "digest-only");
  });
});

describe("manifests", () => {
  test("which paths are read as manifests: Dockerfiles and YAML, not YAML lockfiles", () => {
    for (const p of ["Dockerfile", "web/Dockerfile.prod", "api.dockerfile", "k8s/deploy.yaml", "docker-compose.yml", "charts/x/values.yaml"])
      assert.equal(isManifestPath(p), true, p);
    for (const p of ["pnpm-lock.yaml", "docs/pnpm-lock.yaml", "conda-lock.yml", "package.json", "README.md", "lock.yaml.txt"])
      assert.equal(isManifestPath(p), false, p);
  });

  test("Kustomize overrides, Helm values, Dockerfile stages; malformed YAML and huge references are noted", () => {
    const r = opsFacts(
      [
        { path: "base/deploy.yaml", text: "kind: Deployment\nmetadata: {name: api}\nspec: {template: {spec: {containers: [{image: acme/api:old}]}}}\n" },
        { path: "base/kustomization.yaml", text: "images:\n  - name: acme/api\n    newTag: v2.0.0\n" },
        { path: "chart/values.yaml", text: "worker:\n  image:\n    registry: ghcr.io\n    repository: acme/worker\n    tag: 1.0.0\n" },
        { path: "Dockerfile", text: "FROM node:20 AS build\nRUN make\nFROM build\nFROM scratch\n" },
        { path: "broken.yaml", text: "kind: Deployment\nspec: [\n" },
        { path: "big.yaml", text: `kind: Pod\nmetadata: {name: big}\nspec: {containers: [{image: "a/${"b".repeat(10_000)}"}]}\n` },
      ],
      { commits: [], tags: new Map([["v2.0.0", "c".repeat(40)]]) },
    );
    const keys = r.facts.nodes.map((n) => n.key);
    assert.ok(keys.includes("image:acme/api:v2.0.0"), "kustomize newTag applied");
    assert.ok(!keys.includes("image:acme/api:old"));
    assert.ok(keys.includes("image:ghcr.io/acme/worker:1.0.0"), "helm image block");
    assert.ok(keys.includes("image:node:20"));
    assert.ok(keys.includes(`commit:${"c".repeat(40)}`), "a version tag joins the git tag's commit");
    assert.ok(r.facts.edges.some((e) => e.type === "BUILT_FROM" && e.src === "image:acme/api:v2.0.0"));
    assert.ok(r.notes.some((n) => n.startsWith("broken.yaml")), "malformed YAML noted");
    assert.ok(r.notes.some((n) => n.includes("10002 characters") || n.includes("characters skipped")), "a huge reference noted");
    assert.ok(keys.some((k) => k.startsWith("workload:Pod/big")), "the workload with the huge image is still there");
  });
});

describe("Helm charts", () => {
  test("values workloads carry the line of their image key; a template's {{ }} prints no library warning", () => {
    const values = "# chart values\nreplicas: 2\n\nworker:\n  replicas: 1\n  image:\n    repository: acme/worker\n    tag: 1.0.0\napi:\n  image: acme/api:2.0.0\n";
    const template = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  template:\n    spec:\n      containers:\n        - image: {{ .Values.image }}\n";
    const r = opsFacts(
      [
        { path: "chart/values.yaml", text: values },
        { path: "chart/templates/deploy.yaml", text: template },
      ],
      { commits: [], tags: new Map() },
    );
    const worker = r.facts.nodes.find((n) => n.key.startsWith("workload:HelmValues/chart.worker"));
    const api = r.facts.nodes.find((n) => n.key.startsWith("workload:HelmValues/chart.api"));
    assert.equal(worker?.props.line, 6, "the worker's image: key is on line 6");
    assert.equal(api?.props.line, 10);
    // The yaml library warns through process.emitWarning: nothing may reach the terminal.
    const child = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `import { opsFacts } from ${JSON.stringify(new URL("../../src/ops/manifests.js", import.meta.url).href)}; opsFacts([{ path: "t/deploy.yaml", text: ${JSON.stringify(template)} }], { commits: [], tags: new Map() });`],
      { encoding: "utf8" },
    );
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stderr, "", "no warning printed");
  });
});

describe("deployed over a real history", () => {
  test("built-from commits, floating tags, digests, unknown revisions, and what runs a commit", async () => {
    const repo = mkdtempSync(join(tmpdir(), "drsg-ops-"));
    const [first] = makeRepo(repo, [{ files: { "src/a.ts": "export function a() {}\n" }, message: "first", tag: "v1.0.0" }]);
    const short = first!.slice(0, 7);
    makeRepo(repo, [
      {
        files: {
          "k8s/app.yaml": [
            "kind: Deployment",
            "metadata: {name: api, namespace: prod}",
            `spec: {template: {spec: {containers: [{image: "ghcr.io/acme/api:main-${short}"}]}}}`,
            "---",
            "kind: Deployment",
            "metadata: {name: web}",
            'spec: {template: {spec: {containers: [{image: "acme/web:latest"}]}}}',
            "---",
            "kind: Job",
            "metadata: {name: migrate}",
            'spec: {template: {spec: {containers: [{image: "acme/migrate:v1.0.0"}, {image: "acme/x:deadbeef1"}]}}}',
            "",
          ].join("\n"),
          "compose.yaml": `services:\n  cache:\n    image: redis@sha256:${"a".repeat(64)}\n`,
        },
        message: "deploy",
      },
    ]);
    const head = git(repo, ["rev-parse", "HEAD"]);
    const store = openStore(join(mkdtempSync(join(tmpdir(), "drsg-ops-db-")), "g.drsg"), { create: true });
    try {
      await digest({ dir: repo, plugins: activePlugins(), store, plane: "app" });
      const ctx: ToolContext = { store, transport: "stdio", plugins: activePlugins, views: new GraphViews(store) };
      const ask = async (name: string) => String(await deployed.run(ctx, { plane: "app", name }));
      assert.match(await ask("api"), new RegExp(`built from commit ${first!.slice(0, 12)}`));
      assert.match(await ask("web"), /floating tag `latest`/);
      assert.match(await ask("cache"), /digest-only reference/);
      const migrate = await ask("migrate");
      assert.match(migrate, /tag v1\.0\.0 = git tag/);
      assert.match(migrate, /names revision deadbeef1, which this history does not hold/);
      const byCommit = await ask(short);
      assert.match(byCommit, /runs this commit \(2\)/);
      assert.match(byCommit, /Deployment api/);
      const atHead = await ask("HEAD");
      assert.match(atHead, new RegExp(`commit ${head.slice(0, 12)}`));
      assert.match(atHead, /nothing in the manifests runs this commit/);
      assert.match(atHead, /runs an older commit \(2\)/);
      assert.match(await ask("HEAD~1"), /runs this commit \(2\)/);
      assert.match(await ask("nope"), /nothing deployed matches `nope`/);
    } finally {
      store.close();
    }
  });
});

describe("folds keep _ops current", () => {
  test("a commit re-pinning a deployment moves what runs where", async () => {
    const { PlaneSync } = await import("../../src/sync/fold.js");
    const repo = mkdtempSync(join(tmpdir(), "drsg-ops-fold-"));
    const shas = makeRepo(repo, [
      { files: { "src/a.ts": "export function a() {}\n" }, message: "one" },
      { files: { "src/b.ts": "export function b() {}\n" }, message: "two" },
    ]);
    const deploy = (sha: string) =>
      `kind: Deployment\nmetadata: {name: api}\nspec: {template: {spec: {containers: [{image: "acme/api:${sha.slice(0, 7)}"}]}}}\n`;
    makeRepo(repo, [{ files: { "k8s/api.yaml": deploy(shas[0]!) }, message: "deploy one" }]);
    const store = openStore(join(mkdtempSync(join(tmpdir(), "drsg-ops-fold-db-")), "g.drsg"), { create: true });
    const sync = await PlaneSync.open({ store, dir: repo, plugins: activePlugins(), plane: "app", log: false });
    try {
      await sync.syncToHead();
      const ctx: ToolContext = { store, transport: "stdio", plugins: activePlugins, views: new GraphViews(store) };
      assert.match(String(await deployed.run(ctx, { plane: "app", name: "api" })), new RegExp(`built from commit ${shas[0]!.slice(0, 12)}`));
      makeRepo(repo, [{ files: { "k8s/api.yaml": deploy(shas[1]!) }, message: "deploy two" }]);
      const r = await sync.syncToHead();
      assert.equal(r.kind, "fold");
      assert.match(String(await deployed.run(ctx, { plane: "app", name: "api" })), new RegExp(`built from commit ${shas[1]!.slice(0, 12)}`));
    } finally {
      await sync.close();
      store.close();
    }
  });
});
