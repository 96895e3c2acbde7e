// zod's functional API (zod/mini: tree-shaken — a cold command loads the parts drsg's schemas
// use, not every schema type with its methods, ~40 ms less), with zod's English messages, which
// zod's classic API configured on import and zod/mini leaves to its user. Every schema drsg
// declares is built from this module, imported as a namespace (`import * as z`) so the bundle
// keeps only what is used.
import { config, locales } from "zod/mini";

config(locales.en());

export * from "zod/mini";
