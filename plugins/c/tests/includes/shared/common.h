static inline int common(void) { return 4; }
