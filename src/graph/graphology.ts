// graphology, required on first use (its CommonJS build): a one-shot CLI verb walks the store and
// never builds a graph, and importing graphology's ES build cost such a process ~25 ms. Every
// drsg module takes its graph classes from here, so one copy of the library is ever loaded.
import { onFirstUse } from "../lazy.js";

/** The graphology module (its classes: MultiDirectedGraph, UndirectedGraph, …). */
export const graphology = onFirstUse<typeof import("graphology")>("graphology");
