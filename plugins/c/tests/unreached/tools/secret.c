/* Defines a non-static function that no header declares, and its own malloc and printf. */
int secret(void) { return 42; }
void *malloc(unsigned long n) { return 0; }
int printf(const char *fmt, ...) { return 0; }
