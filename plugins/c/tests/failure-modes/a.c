/* Failure modes other code graphs showed (plugins/c/README.md lists them). */
#include "chain.h"

static int helper(int x) { return x; }
int foo(int x) { return x; }
int fooBar(int x) { return x; }
int append(int x) { return x; }

struct list { int (*append)(int); };

int caller(struct list *items, int n)
{
    foo(1);
    // A fuzzy name never answers for another: foo binds to foo, not fooBar.
    // @fact edge CALLS a.c::caller -> a.c::foo by=scope
    // @fact no-edge CALLS a.c::caller -> a.c::fooBar
    items->append(n);
    // A call on a receiver is a function-pointer call, even though the file defines append.
    // @fact edge CALLS a.c::caller -> ?::a.c::items->append reason="dynamic call"
    // @fact no-edge CALLS a.c::caller -> a.c::append
    for (int i = 0; i < n; i++) {
        switch (i) {
        case 0: { if (i == 0) helper(i); break; }
        }
    }
    // Deeply nested: still the enclosing function, never the file.
    // @fact edge CALLS a.c::caller -> a.c::helper by=scope line=23
    // @fact no-edge CALLS a.c -> *
    return hop1(n);
    // @fact edge CALLS a.c::caller -> chain.c::hop1 by=include
}
