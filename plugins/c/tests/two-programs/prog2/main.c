#include "helper.h"
int main(void)
{
    return helper(2);
    // @fact edge CALLS prog2/main.c::main -> prog2/helper.c::helper by=include confidence=high
    // @fact no-edge CALLS prog2/main.c::main -> prog1/helper.c::helper
}
