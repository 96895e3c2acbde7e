// Python's builtins namespace: a name found nowhere in a module's scopes but here is the builtin
// (External `python:builtins.<name>`), never a same-named repository symbol.

/** Builtin classes: calling one yields an instance, so `x = list(); x.append()` is typed. */
export const BUILTIN_CLASSES: ReadonlySet<string> = new Set([
  "bool", "bytearray", "bytes", "classmethod", "complex", "dict", "enumerate", "filter", "float",
  "frozenset", "int", "list", "map", "memoryview", "object", "property", "range", "reversed", "set",
  "slice", "staticmethod", "str", "super", "tuple", "type", "zip",
  "BaseException", "BaseExceptionGroup", "Exception", "ExceptionGroup", "ArithmeticError",
  "AssertionError", "AttributeError", "BlockingIOError", "BrokenPipeError", "BufferError",
  "ChildProcessError", "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError",
  "ConnectionResetError", "EOFError", "EnvironmentError", "FileExistsError", "FileNotFoundError",
  "FloatingPointError", "GeneratorExit", "IOError", "ImportError", "IndentationError", "IndexError",
  "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError",
  "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError",
  "OSError", "OverflowError", "PermissionError", "ProcessLookupError", "RecursionError",
  "ReferenceError", "RuntimeError", "StopAsyncIteration", "StopIteration", "SyntaxError",
  "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError", "UnboundLocalError",
  "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "ValueError",
  "ZeroDivisionError", "Warning", "UserWarning", "DeprecationWarning", "PendingDeprecationWarning",
  "RuntimeWarning", "SyntaxWarning", "FutureWarning", "ImportWarning", "UnicodeWarning",
  "BytesWarning", "ResourceWarning", "EncodingWarning",
]);

export const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  "abs", "aiter", "all", "anext", "any", "ascii", "bin", "breakpoint", "callable", "chr", "compile",
  "copyright", "credits", "delattr", "dir", "divmod", "eval", "exec", "exit", "format", "getattr",
  "globals", "hasattr", "hash", "help", "hex", "id", "input", "isinstance", "issubclass", "iter",
  "len", "license", "locals", "max", "min", "next", "oct", "open", "ord", "pow", "print", "quit",
  "repr", "round", "setattr", "sorted", "sum", "vars", "__import__", "__build_class__",
  "NotImplemented", "Ellipsis", "__name__", "__file__", "__doc__", "__spec__", "__loader__",
  "__package__", "__builtins__", "__debug__", "__path__",
]);

export function isBuiltin(name: string): boolean {
  return BUILTIN_CLASSES.has(name) || BUILTIN_FUNCTIONS.has(name);
}

/** typing / collections aliases of builtin containers: an annotation `List[int]` is a `builtins.list`. */
export const TYPING_ALIASES: Readonly<Record<string, string>> = {
  List: "builtins.list",
  Dict: "builtins.dict",
  Set: "builtins.set",
  FrozenSet: "builtins.frozenset",
  Tuple: "builtins.tuple",
  Text: "builtins.str",
  AnyStr: "builtins.str",
  DefaultDict: "collections.defaultdict",
  OrderedDict: "collections.OrderedDict",
  Deque: "collections.deque",
  Counter: "collections.Counter",
  ChainMap: "collections.ChainMap",
};

/** Wrappers whose first argument is the type (`Optional[X]` is handled apart, as X | None). */
export const TYPE_WRAPPERS: ReadonlySet<string> = new Set([
  "Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly", "InitVar", "TypeGuard",
]);

/** Bases that contribute no ordinary methods: skipped when walking an MRO. */
export const TRANSPARENT_BASES: ReadonlySet<string> = new Set([
  "builtins.object", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "abc.ABC",
  "typing_extensions.Generic",
]);

/** Top-level standard-library modules: a loose script named like one never stands in for it. */
export const STDLIB_MODULES: ReadonlySet<string> = new Set(
  (
    "abc aifc argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect " +
    "builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys " +
    "compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses " +
    "dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum errno " +
    "faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt getpass " +
    "gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib " +
    "inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap " +
    "marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath " +
    "nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes " +
    "pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr " +
    "pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched " +
    "secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver " +
    "spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct " +
    "subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap " +
    "threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle " +
    "turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser " +
    "winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo __future__"
  ).split(" "),
);
