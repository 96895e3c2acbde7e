/* Defines list_count without including list.h: still the only definition in the tree. */
struct list;
int list_count(const struct list *l) { return 0; }
// @fact node lib/count.c::list_count Function declared_in=lib/list.h
