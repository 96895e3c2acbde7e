#include "a.h"
#include "b.h"

int use(int x)
{
    int m = MIN(x, 3);
    // Two headers of the unit define MIN: nothing says which one the preprocessor kept.
    // @fact edge CALLS use.c::use -> ?::use.c::MIN reason="ambiguous: 2 candidates"
    // @fact no-edge CALLS use.c::use -> a.h::MIN
    // @fact no-edge CALLS use.c::use -> b.h::MIN
    return zalloc(m) + BUF_SIZE;
    // A function-like macro of an included header, not the same-named function of impl.c.
    // @fact edge CALLS use.c::use -> a.h::zalloc by=include confidence=high
    // @fact no-edge CALLS use.c::use -> impl.c::zalloc
}
