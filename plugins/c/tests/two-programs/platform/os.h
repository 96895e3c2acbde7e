/* One header, two implementations (one per platform): a shared header proves nothing. */
int os_open(const char *path);
