#include "ops.h"
int user(int fd)
{
    global_hook(fd);
    // Declared `extern` by the header: a variable, so a dynamic call.
    // @fact edge CALLS user.c::user -> ?::user.c::global_hook reason="dynamic call"
    return read(fd);
    // @fact edge CALLS user.c::user -> ops.c::read by=include confidence=high
}
