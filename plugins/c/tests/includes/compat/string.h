/* a compatibility header that happens to share a standard name */
int compat_strlen(const char *s);
