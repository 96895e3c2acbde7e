#include "os.h"
int use(void)
{
    return os_open("x");
    // @fact edge CALLS platform/use.c::use -> ?::platform/use.c::os_open reason="ambiguous: 2 candidates"
    // @fact no-edge CALLS platform/use.c::use -> platform/os_unix.c::os_open
    // @fact no-edge CALLS platform/use.c::use -> platform/os_win.c::os_open
}
