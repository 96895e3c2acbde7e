// Shared by the dashboard's browser tests and its benchmark: the page built into dist/web (built
// here when missing), `drsg serve watch` as a real process on a free loopback port, and Debian's
// Chromium driven by playwright-core (no browser download).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page, chromium } from "playwright-core";
import { PACKAGE_ROOT } from "../../src/paths.js";

export const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
export const CHROMIUM = process.env.DRSG_CHROMIUM ?? "/usr/bin/chromium";
export const AXE = join(PACKAGE_ROOT, "node_modules", "axe-core", "axe.min.js");

/** Build dist/web when it is not there (npm test builds it; a lone test run may not have). */
export function ensureWebBuilt(): void {
  if (existsSync(join(PACKAGE_ROOT, "dist", "web", "index.html"))) return;
  const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, "scripts", "build-web.mjs")], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("scripts/build-web.mjs failed");
}

export interface Served {
  child: ChildProcess;
  /** The dashboard's URL (http://127.0.0.1:PORT/). */
  url: string;
  origin: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Start `drsg serve <args>` on a free port; resolves once it prints the dashboard URL. */
export function serveDashboard(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Served> {
  return new Promise((resolve, reject) => {
    const home = mkdtempSync(join(tmpdir(), "drsg-web-home-"));
    const childEnv: NodeJS.ProcessEnv = { ...process.env, DRSG_HOME: home, ...env };
    if (!("DRSG_TOKEN" in env)) delete childEnv.DRSG_TOKEN;
    const child = spawn(process.execPath, [DRSG, "serve", ...args, "--addr", "127.0.0.1:0"], { env: childEnv, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), timeoutMs);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: dashboard (http:\/\/\S+\/)/.exec(err);
      if (m) {
        clearTimeout(timer);
        const url = m[1]!;
        resolve({
          child,
          url,
          origin: new URL(url).origin,
          stderr: () => err,
          stop: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null) return r();
              child.once("exit", () => r());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it) — DRSG_CHROMIUM names another`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Open the dashboard and wait until it has read its planes and tools. */
export async function openDashboard(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
  return page;
}
