// Child process of the fold benchmark: the folds run in a process of their own, as `drsg watch`
// does, so its RSS readings count only what a follower holds (not the other benchmarks' heaps).
// Prints the result as JSON on stdout; progress goes to stderr.
import { benchFold } from "./fold.js";

const r = await benchFold({ log: (l) => process.stderr.write(`${l}\n`) });
process.stdout.write(`${JSON.stringify(r)}\n`);
