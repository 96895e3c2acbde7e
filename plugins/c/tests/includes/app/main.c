#include <stdio.h>
#include <string.h>
#include "util.h"
#include "lib/api.h"
#include <mylib/pub.h>
#include "../shared/common.h"
#include "config_defs.h"
#include "generated.h"

// @fact edge IMPORTS app/main.c -> c:<stdio.h> by=external confidence=high line=1
// A standard header stays outside the tree even though compat/string.h exists.
// @fact edge IMPORTS app/main.c -> c:<string.h> by=external
// @fact no-edge IMPORTS app/main.c -> compat/string.h
// @fact edge IMPORTS app/main.c -> app/util.h by=relative confidence=high line=3 ref="\"util.h\""
// @fact edge IMPORTS app/main.c -> include/lib/api.h by=include_dir confidence=high
// @fact edge IMPORTS app/main.c -> include/mylib/pub.h by=include_dir ref=<mylib/pub.h>
// @fact edge IMPORTS app/main.c -> shared/common.h by=relative
// @fact edge IMPORTS app/main.c -> third/deep/config_defs.h by=basename confidence=medium
// A quoted header the tree does not have is a dependency.
// @fact edge IMPORTS app/main.c -> "c:\"generated.h\"" by=external confidence=medium
// @fact node c:<stdio.h> External

int main(void)
{
    return util() + api() + pub() + common() + CONFIG_LEVEL;
    // @fact edge CALLS app/main.c::main -> app/util.c::util by=include confidence=high
    // @fact edge CALLS app/main.c::main -> include/lib/api.h::api by=include
    // @fact edge CALLS app/main.c::main -> include/mylib/pub.h::pub by=include
    // @fact edge CALLS app/main.c::main -> shared/common.h::common by=include
}
