static inline int api(void) { return 2; }
