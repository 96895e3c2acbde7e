// biome-ignore-all lint/performance/useDomNodeTextContent: these are playwright Locator.innerText calls (rendered text with line breaks), not DOM nodes
// The dashboard in a real browser (Debian's Chromium via playwright-core) against `drsg serve
// watch` on a fixture repository: planes, an explorer search (candidates for an ambiguous name),
// expand, inspector with the source snippet, history and back, a query, a commit that shows up
// in the fold log without a reload, and an axe-core pass on every view. Screenshots go to the
// test's temp dir; a failing step names its screenshot.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { makeRepo } from "../git/fixture.js";
import { AXE, type Served, ensureWebBuilt, launchChromium, openDashboard, serveDashboard } from "./support.js";

// The page-side callbacks below run in the browser; these are the few DOM names they use
// (the test build has no DOM library).
declare const window: Record<string, unknown>;
declare const document: {
  querySelector(s: string): { textContent: string | null } | null;
  querySelectorAll(s: string): { length: number } & Iterable<unknown>;
};

const shots = mkdtempSync(join(tmpdir(), "drsg-web-shots-"));

/** Run a step; on failure, screenshot the page and say where the picture is. */
async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    const r = await fn();
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    return r;
  } catch (e) {
    const path = join(shots, `${name}-FAILED.png`);
    await page.screenshot({ path, fullPage: true }).catch(() => undefined);
    throw new Error(`${(e as Error).message}\nscreenshot: ${path}`);
  }
}

/** axe-core in the page (evaluated through the DevTools protocol: the page's CSP admits no injected script). */
async function axeSerious(page: Page): Promise<string[]> {
  const src = readFileSync(AXE, "utf8");
  await page.evaluate(src);
  const r = await page.evaluate(async () => {
    const axe = window.axe as { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")}`);
}

describe("dashboard in Chromium", () => {
  let repo: string;
  let served: Served;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureWebBuilt();
    repo = mkdtempSync(join(tmpdir(), "drsg-web-repo-"));
    makeRepo(repo, [
      {
        files: {
          "package.json": JSON.stringify({ name: "shop" }),
          "src/cart.ts": [
            'import { price } from "./price";',
            "export class Cart {",
            "  items: number[] = [];",
            "  add(n: number) { this.items.push(n); return total(this.items); }",
            "  run() { return 1; }",
            "}",
            "export function total(xs: number[]): number { return xs.reduce((a, b) => a + price(b), 0); }",
            "export function checkout(c: Cart) { c.add(1); return total(c.items) + mystery.go(); }",
            "",
          ].join("\n"),
          "src/price.ts": "export function price(n: number): number { return n * 2; }\nexport class Job { run() { return price(2); } }\n",
        },
        message: "init",
      },
    ]);
    const db = join(mkdtempSync(join(tmpdir(), "drsg-web-db-")), "g.drsg");
    served = await serveDashboard(["watch", "--dir", repo, "--db", db, "--plane", "shop"]);
    browser = await launchChromium();
    page = await openDashboard(browser, served.url);
    await page.evaluate(() => {
      window.marker = "no reload";
    });
  });

  after(async () => {
    await browser?.close();
    await served?.stop();
    process.stderr.write(`dashboard screenshots: ${shots}\n`);
  });

  test("Planes shows the plane, its counts, commit, siblings and build report", async () => {
    await step(page, "01-planes", async () => {
      const card = page.locator('article[aria-label="plane shop"]');
      await card.waitFor();
      const text = await card.innerText();
      assert.match(text, /nodes \/ edges/);
      assert.match(text, /synced\s+commit [0-9a-f]{12}/);
      assert.match(text, /at HEAD/);
      assert.match(text, /shop_git/);
      assert.match(text, /last full build/);
      assert.match(text, /unclaimed extensions: \.json \(1\)/);
      assert.match(text, /calls resolved/);
    });
  });

  test("Explorer: an ambiguous name lists candidates, never a guess", async () => {
    await step(page, "02-candidates", async () => {
      await page.click("#tab-explorer");
      await page.fill("#explore-name", "run");
      await page.click('#view-explorer form.search button[type="submit"]');
      await page.locator("ul.candidates li").first().waitFor();
      const keys = await page.locator("ul.candidates li button").allInnerTexts();
      assert.ok(keys.includes("shop/src/cart.Cart.run") && keys.includes("shop/src/price.Job.run"), keys.join(", "));
      assert.equal(await page.locator("tr[data-node]").count(), 0, "nothing drawn for an ambiguous name");
    });
  });

  test("Explorer: search draws the neighbourhood, expand adds to it, the inspector shows the snippet", async () => {
    await step(page, "03-explore", async () => {
      await page.fill("#explore-name", "total");
      await page.click('#view-explorer form.search button[type="submit"]');
      await page.locator('tr[data-node] >> text="shop/src/cart.total"').waitFor();
      const before = await page.locator("tr[data-node]").count();
      assert.ok(before >= 4, `neighbourhood of total: ${before} nodes`);
      // The graph is drawn: sigma's canvas is in the container.
      assert.equal(await page.locator("#explorer-graph canvas").count() > 0, true);
      // Edge styles differ by more than colour: the legend draws each as the graph does.
      const swatch = async (t: string) => (await page.locator(`.legend .chip:has-text("${t}") .bar`).getAttribute("style")) ?? "";
      for (const t of ["IMPORTS", "IMPLEMENTS", "REFERENCES", "USES_TYPE", "unresolved call"]) assert.match(await swatch(t), /repeating-linear-gradient/, `${t} dashed or dotted`);
      for (const t of ["CALLS", "CONTAINS", "EXTENDS"]) assert.doesNotMatch(await swatch(t), /repeating/, `${t} solid`);
      // The unresolved call inside total (xs.reduce) is shown as such.
      assert.match(await page.locator("#view-explorer .node-list").innerText(), /unresolved/);
      await page.click('button[aria-label="expand shop/src/cart.checkout"]');
      await page.waitForFunction((n) => document.querySelectorAll("tr[data-node]").length > n, before);
      assert.match(await page.locator("#view-explorer .node-list").innerText(), /mystery\.go \(unresolved/);
    });
    await step(page, "04-inspector", async () => {
      await page.click('button[aria-label="inspect shop/src/cart.total"]');
      await page.waitForFunction(() => document.querySelector("#inspector pre.snippet")?.textContent?.includes("xs.reduce"));
      const snippet = await page.locator("#inspector pre.snippet").innerText();
      assert.match(snippet, /export function total\(xs: number\[\]\): number \{ return xs\.reduce/);
      assert.match(snippet, /synced: commit [0-9a-f]{12}/);
      await page.locator("#callers li").first().waitFor();
      const callers = await page.locator("#callers").innerText();
      assert.match(callers, /shop\/src\/cart\.Cart\.add/);
      assert.match(callers, /shop\/src\/cart\.checkout/);
      assert.match(await page.locator("#callees").innerText(), /shop\/src\/price\.price/);
      await page.locator('#inspector svg[aria-label^="impact radius"]').waitFor();
      assert.match(await page.locator("#inspector .rings").innerText(), /distance 1: 2/);
      assert.match(await page.locator("#inspector").innerText(), /signature\s+function total/);
      // The canvas narrowed for the inspector: the drawing follows it, nothing drawn past its edge (under the inspector).
      await page.waitForFunction(() => {
        const p = (window.drsg as { placement(): { width: number; height: number; nodes: { x: number; y: number }[] } }).placement();
        return p.nodes.length > 0 && p.nodes.every((n) => n.x >= 0 && n.x <= p.width && n.y >= 0 && n.y <= p.height);
      }, undefined, { timeout: 5_000 }).catch(async () => {
        const p = await page.evaluate(() => (window.drsg as { placement(): unknown }).placement());
        assert.fail(`nodes drawn outside the narrowed canvas: ${JSON.stringify(p)}`);
      });
    });
  });

  test("Explorer: a pinned node stays through the next search", async () => {
    await step(page, "04b-pin", async () => {
      await page.click('button[aria-label="pin shop/src/price.price"]');
      assert.equal(await page.getAttribute('button[aria-label="unpin shop/src/price.price"]', "aria-pressed"), "true");
      await page.fill("#explore-name", "Cart.add");
      await page.click('#view-explorer form.search button[type="submit"]');
      await page.waitForFunction(() => document.querySelector("#view-explorer .info")?.textContent?.startsWith("shop/src/cart.Cart.add") ?? false);
      const keys = await page.locator("#view-explorer tr[data-node] td:first-child").allInnerTexts();
      assert.ok(keys.includes("shop/src/cart.Cart.add"), keys.join(", "));
      assert.ok(keys.includes("shop/src/price.price"), `pinned node kept: ${keys.join(", ")}`);
      assert.ok(!keys.includes("?::src/cart.ts::mystery.go"), "unpinned nodes of the last drawing are gone");
      await page.click('button[aria-label="unpin shop/src/price.price"]');
      await page.fill("#explore-name", "total");
      await page.click('#view-explorer form.search button[type="submit"]');
      await page.waitForFunction(() => document.querySelector("#view-explorer .info")?.textContent?.startsWith("shop/src/cart.total") ?? false);
    });
  });

  test("History lists commits; choosing one shows its change; back to the explorer keeps the drawing", async () => {
    await step(page, "05-history", async () => {
      await page.click("#tab-history");
      const sha = page.locator(".history .commit button.sha").first();
      await sha.waitFor();
      await sha.click();
      await page.waitForFunction(() => {
        const pres = document.querySelectorAll(".commit-detail pre") as unknown as { textContent: string | null }[];
        return pres.length === 2 && [...pres].every((p) => p.textContent !== "…" && p.textContent !== "");
      });
      const detail = await page.locator(".commit-detail").innerText();
      // The root commit: the build that read it, and its tree (it has no parent to diff against).
      assert.match(detail, /build: 3 file\(s\)/);
      assert.match(detail, /symbols added \d+/);
      assert.match(detail, /the first commit of this history/);
      assert.match(detail, /src\//);
      assert.match(await page.locator(".history").innerText(), /\* main/);
    });
    await step(page, "06-back", async () => {
      await page.click("#tab-explorer");
      assert.equal(await page.locator("#view-explorer").isVisible(), true);
      assert.ok((await page.locator("tr[data-node]").count()) > 4);
      assert.equal(await page.locator("#view-history").isVisible(), false);
    });
  });

  test("Query runs a statement (cypher when the server has it, else grep)", async () => {
    await step(page, "07-query", async () => {
      await page.click("#tab-query");
      const label = await page.locator('label[for="query-box"]').innerText();
      if (label === "cypher") await page.fill("#query-box", "MATCH (f:Function) RETURN f.key");
      else await page.fill("#query-box", "reduce");
      await page.click('#view-query button[type="submit"]');
      await page.waitForFunction(() => {
        const t = document.querySelector("#query-result")?.textContent ?? "";
        return t.length > 0 && t !== "…";
      });
      const out = await page.locator("#query-result").innerText();
      if (label === "cypher") assert.match(out, /total/);
      else assert.match(out, /src\/cart\.ts:7/);
    });
  });

  test("Map draws the directory clusters and descends on a click", async () => {
    await step(page, "08-map", async () => {
      await page.click("#tab-map");
      await page.locator("#view-map table.nodes tbody tr").first().waitFor();
      const rows = await page.locator("#view-map table.nodes tbody").innerText();
      assert.match(rows, /cart\.ts/);
      assert.match(rows, /price\.ts/);
      await page.click('button[aria-label="open cart.ts"]');
      await page.waitForFunction(() => document.querySelector("#view-map table.nodes tbody")?.textContent?.includes("shop/src/cart.total"));
    });
  });

  test("a commit to the repository appears in the Live fold log without a reload", async () => {
    await step(page, "09-live", async () => {
      await page.click("#tab-live");
      await page.locator("#fold-rows tr").first().waitFor();
      await page.waitForFunction(() => document.querySelector("#live-conn")?.textContent === "(live)");
      const [sha] = makeRepo(repo, [{ files: { "src/price.ts": "export function price(n: number): number { return n * 3; }\nexport function tax(n: number) { return price(n) / 10; }\nexport class Job { run() { return price(2); } }\n" }, message: "tax" }]);
      await page.locator(`#fold-rows tr[data-commit="${sha}"]`).waitFor({ timeout: 60_000 });
      const row = await page.locator(`#fold-rows tr[data-commit="${sha}"]`).innerText();
      assert.match(row, /fold/);
      assert.match(row, /\+1 ~\d+ −0 symbols/);
      assert.equal(await page.evaluate(() => window.marker), "no reload");
      assert.match(await page.locator("#health").innerText(), /tool calls in flight/);
    });
  });

  test("axe-core finds no serious or critical violation on any view", async () => {
    const found: string[] = [];
    for (const v of ["planes", "explorer", "map", "history", "query", "live"]) {
      await page.click(`#tab-${v}`);
      await page.waitForTimeout(200);
      for (const x of await axeSerious(page)) found.push(`${v}: ${x}`);
    }
    await page.click("#tab-explorer");
    await page.click('button[aria-label="inspect shop/src/cart.total"]');
    await page.locator('#inspector svg[aria-label^="impact radius"]').waitFor();
    for (const x of await axeSerious(page)) found.push(`explorer+inspector: ${x}`);
    assert.deepEqual(found, []);
    // The pass can fail: a button with no name is a critical violation axe reports here.
    await page.evaluate(() => {
      const b = (document as unknown as { createElement(t: string): unknown }).createElement("button");
      (document as unknown as { body: { append(x: unknown): void } }).body.append(b);
    });
    assert.ok((await axeSerious(page)).some((v) => v.startsWith("button-name")), "axe sees an unnamed button");
  });
});
