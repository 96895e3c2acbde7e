#include "util.h"
int util(void) { return 1; }
// @fact node app/util.c::util Function declared_in=app/util.h
