#include "list.h"
struct list { struct node *head; int n; };

static void grow(struct list *l) { l->n++; }

struct list *list_new(void)
{
    return 0;
}
// A prototype is not a node; the definition names the headers that declare it, and takes the
// header's doc comment when it has none of its own.
// @fact node lib/list.c::list_new Function declared_in=lib/list.h doc_comment="/** Makes an empty list. */"
// @fact no-node lib/list.h::list_new

void list_push(struct list *l, int v)
{
    grow(l);
    l->head = node_make(v);
    // @fact edge CALLS lib/list.c::list_push -> lib/list.c::grow by=scope
    // @fact edge CALLS lib/list.c::list_push -> lib/node.c::node_make by=include confidence=high
}
