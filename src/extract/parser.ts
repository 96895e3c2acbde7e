// Loading grammars and compiling queries with web-tree-sitter, once per thread.
import { Language, Parser, Query } from "web-tree-sitter";
import { DrsgError } from "../model/errors.js";
import type { GrammarJob } from "../plugin/host.js";
import { bindWasm } from "./matches.js";

let initialised: Promise<void> | undefined;

export function initParser(): Promise<void> {
  // The module object handed to init is the emscripten module itself once init resolves: the
  // extraction reads query matches out of its memory through it (matches.ts).
  const mod = {};
  initialised ??= Parser.init(mod).then(() => {
    bindWasm(mod);
  });
  return initialised;
}

export interface LoadedGrammar {
  job: GrammarJob;
  language: Language;
  query: Query;
  parser: Parser;
}

/** Line and column (1-based) of a character offset in a text. */
export function lineCol(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col };
}

/** Compile a query, turning tree-sitter's error into QUERY_COMPILE_FAILED with line and column. */
export function compileQuery(language: Language, source: string, where: string): Query {
  try {
    return new Query(language, source);
  } catch (e) {
    const err = e as { message?: string; index?: number };
    const pos = typeof err.index === "number" ? lineCol(source, err.index) : undefined;
    throw new DrsgError(
      "QUERY_COMPILE_FAILED",
      `plugin query ${where}${pos ? `:${pos.line}:${pos.column}` : ""}: ${err.message ?? String(e)}`,
      { where, ...(pos ?? {}) },
    );
  }
}

export async function loadGrammar(job: GrammarJob): Promise<LoadedGrammar> {
  await initParser();
  let language: Language;
  try {
    language = await Language.load(job.wasmPath);
  } catch (e) {
    throw new DrsgError("GRAMMAR_LOAD_FAILED", `plugin ${job.plugin}: cannot load grammar ${job.wasmPath}: ${String(e)}`, {
      plugin: job.plugin,
    });
  }
  const query = compileQuery(language, job.querySource, `${job.plugin}/${job.grammar}`);
  const parser = new Parser();
  parser.setLanguage(language);
  return { job, language, query, parser };
}
