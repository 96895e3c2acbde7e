#ifndef NODE_H
#define NODE_H
struct node { int v; struct node *next; };
struct node *node_make(int v);
static inline int node_ok(const struct node *n) { return n != 0; }
#define NODE_MAX 8
#define node_value(n) ((n)->v)
#endif
