#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define zalloc(n) z_alloc_impl(n)
#define BUF_SIZE 64
int z_alloc_impl(int n);
