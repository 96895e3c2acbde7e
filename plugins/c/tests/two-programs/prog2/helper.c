#include "helper.h"
int helper(int x) { return x - 1; }
// @fact node prog2/helper.c::helper Function declared_in=prog2/helper.h
