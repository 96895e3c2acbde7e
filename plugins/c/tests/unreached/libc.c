#include <stdio.h>
#include <stdlib.h>
int use_libc(void)
{
    char *p = malloc(4);
    printf("%s", p);
    // The tree defines malloc and printf (tools/secret.c), but this unit declares neither:
    // the library's, an External — never the repo's.
    // @fact edge CALLS libc.c::use_libc -> c:malloc by=external confidence=medium
    // @fact edge CALLS libc.c::use_libc -> c:printf by=external confidence=medium
    // @fact no-edge CALLS libc.c::use_libc -> tools/secret.c::malloc
    // @fact no-edge CALLS libc.c::use_libc -> tools/secret.c::printf
    // @fact node c:printf External
    qsort_r_like(p);
    // Not defined in the tree, the unit includes headers from outside it: an External.
    // @fact edge CALLS libc.c::use_libc -> c:qsort_r_like by=external confidence=medium
    secret();
    // Not a library name and defined in the tree: still not declared here.
    // @fact edge CALLS libc.c::use_libc -> ?::libc.c::secret reason="not declared in the translation unit"
    return __builtin_expect(p != 0, 1);
    // @fact edge CALLS libc.c::use_libc -> c:__builtin_expect by=builtin confidence=high
}
