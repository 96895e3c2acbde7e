#define TWICE(x) ((x) * 2)
int local(int x) { return TWICE(x); }
// @fact edge CALLS local.c::local -> local.c::TWICE by=scope confidence=high
// @fact node local.c::TWICE Function kind=macro signature="#define TWICE(x) ((x) * 2)"
