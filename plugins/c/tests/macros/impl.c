#include "a.h"
int z_alloc_impl(int n) { return n; }
/* A function named like the macro: the macro wins in a unit that includes a.h. */
int zalloc(int n) { return n + 1; }
