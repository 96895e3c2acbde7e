#define MIN(a, b) ((a) <= (b) ? (a) : (b))
