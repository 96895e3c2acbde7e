/* Same-named static functions of different files stay apart. */
static int helper(int x) { return -x; }
int other(void) { return helper(2); }
// @fact node b.c::helper Function visibility=static
// @fact node a.c::helper Function visibility=static
// @fact edge CALLS b.c::other -> b.c::helper by=scope
// @fact no-edge CALLS b.c::other -> a.c::helper
