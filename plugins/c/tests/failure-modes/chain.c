#include "chain.h"
/* A chain of four hops across files, for trace. */
int hop1(int n) { return hop2(n); }
int hop2(int n) { return hop3(n); }
int hop3(int n) { return hop4(n); }
// @fact edge CALLS chain.c::hop1 -> chain.c::hop2 by=scope
// @fact edge CALLS chain.c::hop2 -> chain.c::hop3 by=scope
// @fact edge CALLS chain.c::hop3 -> hop4.c::hop4 by=include confidence=high
