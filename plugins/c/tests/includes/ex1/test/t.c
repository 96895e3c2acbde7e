#include "prod.h"
// Two files are named prod.h: the one sharing the deepest directory with the includer.
// @fact edge IMPORTS ex1/test/t.c -> ex1/src/prod.h by=basename confidence=medium
// @fact no-edge IMPORTS ex1/test/t.c -> ex2/src/prod.h
int t(void) { return 0; }
