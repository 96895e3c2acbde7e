// A plugin's recovery rewrites: when a file does not parse cleanly, syntax the pinned grammar does
// not know (TypeScript's variance annotations, `export type *`, generic call signatures that open a
// line of an interface) is rewritten in place and the file parsed again. A rewrite keeps every
// character where it was — it only replaces the characters of one capture group with one filler
// character, never a line break — so every position read from the second tree is a position of the
// file, and text is always sliced from the file itself. The second tree is kept only when it has
// fewer error nodes. Patterns run on re2js (linear time): a plugin is code we did not write.
import { onFirstUse } from "../lazy.js";
import type { RE2JS } from "re2js";
import { DrsgError } from "../model/errors.js";

/**
 * re2js, loaded on first use (its CommonJS build: the load is synchronous, as compileRules is): a
 * verb whose plugin set was checked before (hashcache.ts) compiles no rule and reads no re2js.
 */
const re2js = onFirstUse<typeof import("re2js")>("re2js");

export interface RecoverRule {
  /** Why the grammar needs it (shown in the plugin's README; kept with the rule). */
  why: string;
  /** An RE2 pattern, compiled multi-line. */
  pattern: string;
  /** The capture group whose characters are replaced. */
  group: number;
  /** The one character each of them becomes. */
  fill: string;
}

export interface CompiledRule {
  re: RE2JS;
  group: number;
  fill: string;
}

/** Compile a plugin's rules; a rule that cannot work is PLUGIN_INVALID naming it. */
export function compileRules(rules: readonly RecoverRule[], where: string): CompiledRule[] {
  return rules.map((r, i) => {
    let re: RE2JS;
    try {
      const { RE2JS: R } = re2js();
      re = R.compile(r.pattern, R.MULTILINE);
    } catch (e) {
      throw new DrsgError("PLUGIN_INVALID", `${where}: recover[${i}] pattern does not compile: ${(e as Error).message}`);
    }
    if (!Number.isInteger(r.group) || r.group < 1 || r.group > re.groupCount())
      throw new DrsgError("PLUGIN_INVALID", `${where}: recover[${i}] group ${r.group} is not one of the pattern's ${re.groupCount()} group(s)`);
    if ([...r.fill].length !== 1 || r.fill.length !== 1 || r.fill === "\n" || r.fill === "\r")
      throw new DrsgError("PLUGIN_INVALID", `${where}: recover[${i}] fill must be one character, not a line break`);
    return { re, group: r.group, fill: r.fill };
  });
}

/**
 * `source` with every rule's group filled; the same length, the same line breaks. A rule runs again
 * on its own result (up to 8 times) while it still changes something: matches may overlap (the `,`
 * that ends one type parameter opens the next).
 */
export function rewrite(source: string, rules: readonly CompiledRule[]): { text: string; rewrites: number } {
  let text = source;
  let rewrites = 0;
  for (const rule of rules) {
    for (let pass = 0; pass < 8; pass++) {
      // Whether it matches at all, first: without capture groups re2js runs its DFA, where finding
      // the groups takes its NFA — 3–10 times slower over a whole file, and most passes match
      // nothing (a rule the file does not need, the pass that checks a rewrite left no more).
      if (!rule.re.test(text)) break;
      const m = rule.re.matcher(text);
      const parts: string[] = [];
      let at = 0;
      let changed = 0;
      while (m.find()) {
        const s = m.start(rule.group);
        const e = m.end(rule.group);
        if (s < 0 || e <= s) continue;
        const filled = text.slice(s, e).replace(/[^\r\n]/g, rule.fill);
        if (filled === text.slice(s, e)) continue;
        parts.push(text.slice(at, s), filled);
        at = e;
        changed++;
      }
      if (changed === 0) break;
      parts.push(text.slice(at));
      text = parts.join("");
      rewrites += changed;
    }
  }
  return { text, rewrites };
}
