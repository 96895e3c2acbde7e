#ifndef LIST_H
#define LIST_H
#include "node.h"
/** Makes an empty list. */
struct list *list_new(void);
void list_push(struct list *l, int v);
int list_count(const struct list *l);
#endif
