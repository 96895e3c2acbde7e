#include "geo.h"
struct box { vec min, max; };
// @fact edge USES_TYPE box.c::box -> geo.h::vec by=include confidence=high

box_t *box_new(vec a, vec b)
{
    struct box *bx = 0;
    return (box_t *)bx;
}
// Parameter, return and local types, through typedefs and tags.
// @fact edge USES_TYPE box.c::box_new -> geo.h::vec by=include
// @fact edge USES_TYPE box.c::box_new -> geo.h::box_t by=include
// @fact edge USES_TYPE box.c::box_new -> box.c::box by=scope
// The typedef in the header names a struct only box.c defines: box.c is not in geo.h's unit.
// @fact no-edge USES_TYPE geo.h::box_t -> *

int sum(vec2 v, struct vec2 w) { return v + w.a; }
// @fact edge USES_TYPE box.c::sum -> geo.h::vec2 by=include
// @fact edge USES_TYPE box.c::sum -> "geo.h::struct vec2" by=include
