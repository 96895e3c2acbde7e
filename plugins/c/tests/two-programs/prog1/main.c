#include "helper.h"
/* Two programs each define a non-static helper: the include chain proves which one — the
   definition whose own file includes the header that declares helper for this caller. */
int main(void)
{
    return helper(1);
    // @fact edge CALLS prog1/main.c::main -> prog1/helper.c::helper by=include confidence=high
    // @fact no-edge CALLS prog1/main.c::main -> prog2/helper.c::helper
}
