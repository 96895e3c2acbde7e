#include "shapes.h"
// @fact node src/shapes.c File

int shapes_made = 0;
// @fact node src/shapes.c::shapes_made Var visibility=public signature="int shapes_made" declared_in=src/shapes.h
static const char *names[MAX_SHAPES], *last_name = 0;
// Each declarator of a declaration is its own global.
// @fact node src/shapes.c::names Var visibility=static
// @fact node src/shapes.c::last_name Var visibility=static

/* Counts the shapes made so far. */
int shape_count(void)
{
    int local = shapes_made;
    // @fact no-node src/shapes.c::local
    return local;
}
// @fact node src/shapes.c::shape_count Function visibility=public line=12 end_line=17 signature="int shape_count(void)" declared_in=src/shapes.h doc_comment="/* Counts the shapes made so far. */"
// @fact edge CONTAINS src/shapes.c -> src/shapes.c::shape_count

static inline int twice(int v) { return 2 * v; }
// @fact node src/shapes.c::twice Function visibility=static signature="static inline int twice(int v)"

struct stack { int depth; };
int stack(struct stack *s) { return s->depth; }
// A tag and an ordinary identifier share a name: the tag's key says which it is.
// @fact node src/shapes.c::stack Function
// @fact node "src/shapes.c::struct stack" Struct
