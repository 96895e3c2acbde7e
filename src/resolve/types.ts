// The resolver contract: all partials of one family (one plane) → facts. The result must depend
// only on the set of partials and manifests, never on their order: that is what makes a fold
// equal a full digest.
import type { Facts } from "../model/facts.js";
import type { Partial } from "../model/partial.js";

export interface ResolveInput {
  /** Partials of every file this family claims, sorted by path. */
  partials: Partial[];
  /** Build files the family's plugins declared (`manifests`), path → text, sorted by path. */
  manifests: Map<string, string>;
  /** Name of the digested tree's directory: the key prefix when no manifest names a package. */
  treeName: string;
  /**
   * Optional (folds): facts are wanted only for these paths — their nodes and the edges from them;
   * the caller keeps the other files' facts from an earlier resolution. A family may skip emitting
   * the others (their node keys must still count, e.g. with FactBuilder.assume) or ignore this
   * and emit everything; every partial is read either way.
   */
  emit?: ReadonlySet<string>;
}

export interface ResolveStats {
  /** Call / new sites bound to a definition in the tree or an External. */
  resolved: number;
  /** Call / new sites left as UnresolvedRef. */
  unresolved: number;
  /** Unresolved sites by reason. */
  reasons: Record<string, number>;
}

export interface ResolveOutput {
  facts: Facts;
  stats: ResolveStats;
  notes: string[];
  /** The edge facts and their props are fresh objects nothing else holds: the caller may stamp them in place. */
  freshEdges?: boolean;
}

export type Resolver = (input: ResolveInput) => ResolveOutput;

/**
 * Optional, per family: which files each file's resolution may read. Read from the partials'
 * imports and paths only (never their refs). It must over-approximate: a file left out whose
 * interface changes leaves the reader's facts stale.
 */
export type Dependencies = (partials: Partial[], manifests: Map<string, string>, treeName: string) => FileDependencies;

export interface FileDependencies {
  /**
   * Per file of `partials` (the family's, sorted by path): the files whose partials its
   * resolution may read directly — through an import of them or of a module binding their names
   * (a fold takes the transitive closure). A module-level name of a file is read only by the
   * files that may read it directly.
   */
  reads: Map<string, Set<string>>;
  /**
   * Per file: the names another file can read from its module (exports, a language where the
   * rest is private); a file absent here (or the map absent) shows every module-level name.
   */
  exported?: Map<string, Set<string>>;
}

/**
 * Optional, per family: what its resolution reads of a manifest (a build file it declared), as a
 * canonical string — two texts with one view resolve alike (a version bump, a script edited), so
 * a fold need not resolve the family in full when only the rest changed. Text it cannot read is
 * its own view.
 */
export type ManifestView = (path: string, text: string) => string;
