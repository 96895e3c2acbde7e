#include "helper.h"
int helper(int x) { return x + 1; }
// @fact node prog1/helper.c::helper Function declared_in=prog1/helper.h
