/* Calls bound within the translation unit: functions defined in the same file, static ones
   included, whatever their order; the caller is the innermost enclosing function. */

static int helper(int x);

static int square(int x) { return x * x; }

int compute(int n)
{
    int first = square(n);
    // A call in a local's initialiser belongs to the function.
    // @fact edge CALLS main.c::compute -> main.c::square by=scope confidence=high line=10 ref=square
    // @fact no-edge CALLS main.c -> *
    if (n > 0)
        return compute(n - 1) + helper(first);
    // Recursion and a forward-declared static defined further down.
    // @fact edge CALLS main.c::compute -> main.c::compute by=scope
    // @fact edge CALLS main.c::compute -> main.c::helper by=scope line=15
    return first;
}

static int helper(int x) { return square(x) + 1; }
// @fact edge CALLS main.c::helper -> main.c::square by=scope
// @fact node main.c::helper Function visibility=static line=22

int table_total = square(3);
// A global's initialiser is attributed to the global.
// @fact edge CALLS main.c::table_total -> main.c::square by=scope

int main(void)
{
    return compute(3);
    // @fact edge CALLS main.c::main -> main.c::compute by=scope
}
