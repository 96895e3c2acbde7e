// Functions and function-like macros of the C standard library and common POSIX headers.
// Used for one rule only: a call to one of these names that nothing in the caller's
// translation unit declares (no in-tree header, no definition in the file) goes to the
// External `c:<name>` when the translation unit includes a header from outside the tree —
// even if some unreachable file of the tree defines a function of that name (a test
// program's own `malloc`, an embedded libc). A builtin never binds to a repo symbol.
const NAMES = `
printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf fscanf sscanf vscanf vsscanf vfscanf
fopen fclose fflush freopen fread fwrite fgetc fgets fputc fputs getc getchar gets putc putchar puts ungetc
fseek ftell fseeko ftello rewind fgetpos fsetpos feof ferror clearerr perror remove rename tmpfile tmpnam setbuf
setvbuf fileno fdopen popen pclose getline getdelim dprintf asprintf vasprintf
malloc calloc realloc free aligned_alloc posix_memalign abort exit _Exit atexit at_quick_exit quick_exit getenv
setenv unsetenv putenv system atoi atol atoll atof strtol strtoll strtoul strtoull strtod strtof strtold abs labs
llabs div ldiv lldiv rand srand random srandom rand_r qsort bsearch mblen mbtowc wctomb mbstowcs wcstombs realpath
mkstemp mkdtemp mktemp
memcpy memmove memset memcmp memchr memrchr memmem strcpy strncpy strcat strncat strcmp strncmp strcoll strxfrm
strchr strrchr strstr strspn strcspn strpbrk strtok strtok_r strlen strnlen strerror strerror_r strdup strndup
strcasecmp strncasecmp strlcpy strlcat stpcpy stpncpy bzero bcopy bcmp index rindex strsep strsignal
isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit tolower toupper
isascii toascii
sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 expm1 log log10 log2 log1p pow sqrt cbrt
hypot ceil floor fabs fmod frexp ldexp modf round lround llround trunc rint lrint nearbyint remainder fmin fmax fdim
fma erf erfc tgamma lgamma copysign nan isnan isinf isfinite signbit fpclassify
sinf cosf tanf expf logf powf sqrtf fabsf floorf ceilf roundf fmodf
time clock difftime mktime strftime strptime gmtime localtime asctime ctime gmtime_r localtime_r nanosleep
clock_gettime gettimeofday timegm
assert static_assert va_start va_end va_arg va_copy setjmp longjmp sigsetjmp siglongjmp
signal raise sigaction sigemptyset sigfillset sigaddset sigdelset sigismember sigprocmask kill alarm
open close read write lseek pread pwrite unlink rmdir mkdir chdir getcwd access stat fstat lstat dup dup2 pipe fork
execv execvp execve execl execlp waitpid wait getpid getppid sleep usleep isatty fcntl ioctl mmap munmap mprotect
msync select poll socket bind listen accept connect send recv sendto recvfrom sendmsg recvmsg setsockopt getsockopt
shutdown getaddrinfo freeaddrinfo gai_strerror getnameinfo gethostbyname inet_pton inet_ntop inet_addr inet_ntoa
htons htonl ntohs ntohl opendir readdir closedir fsync fdatasync ftruncate truncate chmod fchmod chown umask getuid
geteuid getgid getegid sysconf readlink symlink link rename gethostname uname syslog openlog closelog
pthread_create pthread_join pthread_detach pthread_self pthread_exit pthread_equal pthread_mutex_init
pthread_mutex_lock pthread_mutex_trylock pthread_mutex_unlock pthread_mutex_destroy pthread_cond_init
pthread_cond_wait pthread_cond_timedwait pthread_cond_signal pthread_cond_broadcast pthread_cond_destroy
pthread_once pthread_key_create pthread_key_delete pthread_getspecific pthread_setspecific pthread_attr_init
pthread_attr_destroy pthread_attr_setstacksize pthread_sigmask pthread_kill pthread_cancel
dlopen dlsym dlclose dlerror setlocale localeconv
wcslen wcscpy wcsncpy wcscmp wcsncmp wcschr wcsstr mbrtowc wcrtomb mbsrtowcs wcsrtombs btowc wctob
`;

export const LIBC: ReadonlySet<string> = new Set(NAMES.split(/\s+/).filter((s) => s.length > 0));
