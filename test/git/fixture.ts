// Builds tiny real git repositories for tests with the git CLI: deterministic authors, dates and
// config, so shas are stable from run to run. Reusable by any test that needs a history.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A file's content: text, bytes, a symlink, or null to delete it. */
export type FixtureContent = string | Uint8Array | { symlink: string } | null;

export interface FixtureCommit {
  /** Paths (POSIX, relative to the repo root) to write, or delete with null. */
  files: Record<string, FixtureContent>;
  message: string;
  /** Switch to this branch first, creating it at the current commit if it does not exist. */
  branch?: string;
  /** Merge this branch (--no-ff, no commit yet) before writing `files`; the commit is the merge. */
  merge?: string;
  /** Tag the new commit: lightweight, or annotated when `tagMessage` is given. */
  tag?: string;
  tagMessage?: string;
  /** Committer/author time in seconds; default FIXTURE_EPOCH + index-in-repo days. */
  ts?: number;
}

/** 2024-01-01T12:00:00Z, the time of a fixture's first commit. */
export const FIXTURE_EPOCH = 1704110400;
const DAY = 86400;

/** The default timestamp of the n-th commit (0-based) made by makeRepo in a repository. */
export function fixtureTs(n: number): number {
  return FIXTURE_EPOCH + n * DAY;
}

function gitEnv(ts?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  };
  if (ts !== undefined) {
    env.GIT_AUTHOR_DATE = `@${ts} +0000`;
    env.GIT_COMMITTER_DATE = `@${ts} +0000`;
  }
  return env;
}

/** Run git in `dir`; returns trimmed stdout, throws with stderr on failure. */
export function git(dir: string, args: string[], ts?: number): string {
  const r = spawnSync(
    "git",
    [
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@e",
      "-c",
      "init.defaultBranch=main",
      "-c",
      "commit.gpgsign=false",
      "-c",
      "tag.gpgsign=false",
      "-c",
      "core.autocrlf=false",
      "-c",
      "core.symlinks=true",
      "-c",
      "gc.auto=0",
      "-c",
      "protocol.file.allow=always",
      ...args,
    ],
    { cwd: dir, env: gitEnv(ts), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${dir}: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

/**
 * Create (or extend) a repository at `dir` with one commit per entry, in order; returns their
 * shas. An empty list leaves an unborn repository on branch main.
 */
export function makeRepo(dir: string, commits: FixtureCommit[]): string[] {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, ".git"))) git(dir, ["init", "-q", "-b", "main"]);
  let n = Number(git(dir, ["rev-list", "--all", "--count"]).trim() || "0");
  if (Number.isNaN(n)) n = 0;
  const shas: string[] = [];
  for (const c of commits) {
    const ts = c.ts ?? fixtureTs(n++);
    if (c.branch) {
      const exists = spawnSync("git", ["rev-parse", "--verify", "-q", `refs/heads/${c.branch}`], { cwd: dir }).status === 0;
      git(dir, exists ? ["checkout", "-q", c.branch] : ["checkout", "-q", "-b", c.branch]);
    }
    if (c.merge) git(dir, ["merge", "-q", "--no-ff", "--no-commit", c.merge], ts);
    for (const [p, content] of Object.entries(c.files)) {
      const full = path.join(dir, p);
      rmSync(full, { force: true, recursive: true });
      if (content === null) continue;
      mkdirSync(path.dirname(full), { recursive: true });
      if (typeof content === "object" && !(content instanceof Uint8Array)) symlinkSync(content.symlink, full);
      else writeFileSync(full, content);
    }
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "--allow-empty", "--no-verify", "-m", c.message], ts);
    if (c.tag) git(dir, c.tagMessage ? ["tag", "-a", c.tag, "-m", c.tagMessage] : ["tag", c.tag], ts);
    shas.push(git(dir, ["rev-parse", "HEAD"]));
  }
  return shas;
}

/** A fresh temp directory (removed by the returned cleanup). */
export function tempDir(prefix = "drsg-git-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
