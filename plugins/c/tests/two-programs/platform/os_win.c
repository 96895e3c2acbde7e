#include "os.h"
int os_open(const char *path) { return 4; }
