int extra(void) { return 7; }
