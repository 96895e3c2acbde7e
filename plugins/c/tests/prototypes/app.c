#include "lib/list.h"

int extra(void);

int run(void)
{
    struct list *l = list_new();
    // Declared by an included header, defined once in the tree, in a file sharing that header.
    // @fact edge CALLS app.c::run -> lib/list.c::list_new by=include confidence=high ref=list_new line=7
    list_push(l, NODE_MAX);
    // @fact edge CALLS app.c::run -> lib/list.c::list_push by=include confidence=high
    struct node *n = node_make(1);
    // Through a header the included header includes.
    // @fact edge CALLS app.c::run -> lib/node.c::node_make by=include confidence=high
    if (!node_ok(n))
        return node_value(n);
    // A static inline function and a function-like macro of an included header.
    // @fact edge CALLS app.c::run -> lib/node.h::node_ok by=include confidence=high
    // @fact edge CALLS app.c::run -> lib/node.h::node_value by=include confidence=high
    // @fact edge REFERENCES app.c::run -> lib/node.h::NODE_MAX by=include
    // The only definition does not include the declaring header: bound, with medium confidence.
    // @fact edge CALLS app.c::run -> lib/count.c::list_count by=include confidence=medium
    return list_count(l) + extra();
    // A prototype written in the file itself, one definition elsewhere: medium.
    // @fact edge CALLS app.c::run -> extra.c::extra by=include confidence=medium
}

int sneaky(void)
{
    grow(0);
    // grow is static to lib/list.c: never reachable from here.
    // @fact no-edge CALLS app.c::sneaky -> lib/list.c::grow
    // @fact edge CALLS app.c::sneaky -> ?::app.c::grow reason="not declared in the translation unit"
    return 0;
}
