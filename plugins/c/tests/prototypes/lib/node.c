#include "node.h"
struct node *node_make(int v) { return 0; }
// @fact node lib/node.c::node_make Function declared_in=lib/node.h
