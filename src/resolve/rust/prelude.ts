// Names every Rust module sees without a `use`: the std prelude, primitive types, std macros and
// the built-in extern crates. They resolve to External stand-ins, never to a repo symbol,
// unless the module itself defines or imports the name.

/** Type-namespace prelude names → the path their External stand-in is keyed by. */
export const PRELUDE_TYPES: ReadonlyMap<string, string> = new Map(
  [
    "Option",
    "Result",
    "Vec",
    "String",
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "ToString",
    "ToOwned",
    "Fn",
    "FnMut",
    "FnOnce",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
  ].map((n) => [n, n]),
);

export const PRIMITIVES: ReadonlySet<string> = new Set([
  "bool",
  "char",
  "str",
  "u8",
  "u16",
  "u32",
  "u64",
  "u128",
  "usize",
  "i8",
  "i16",
  "i32",
  "i64",
  "i128",
  "isize",
  "f32",
  "f64",
]);

/** Value-namespace prelude names → External path. */
export const PRELUDE_VALUES: ReadonlyMap<string, string> = new Map([
  ["Some", "Option::Some"],
  ["None", "Option::None"],
  ["Ok", "Result::Ok"],
  ["Err", "Result::Err"],
  ["drop", "drop"],
]);

/** Prelude values that construct a value (INSTANTIATES rather than CALLS). */
export const PRELUDE_CONSTRUCTORS: ReadonlySet<string> = new Set(["Some", "None", "Ok", "Err"]);

export const STD_MACROS: ReadonlySet<string> = new Set([
  "assert",
  "assert_eq",
  "assert_ne",
  "cfg",
  "column",
  "compile_error",
  "concat",
  "dbg",
  "debug_assert",
  "debug_assert_eq",
  "debug_assert_ne",
  "env",
  "eprint",
  "eprintln",
  "file",
  "format",
  "format_args",
  "include",
  "include_bytes",
  "include_str",
  "line",
  "matches",
  "module_path",
  "option_env",
  "panic",
  "print",
  "println",
  "stringify",
  "thread_local",
  "todo",
  "try",
  "unimplemented",
  "unreachable",
  "vec",
  "write",
  "writeln",
  "debug_assert_matches",
  "assert_matches",
  "concat_idents",
  "const_format_args",
  "addr_of",
  "addr_of_mut",
]);

/** Crates every crate can name without a Cargo dependency. */
export const BUILTIN_CRATES: ReadonlySet<string> = new Set(["std", "core", "alloc", "proc_macro", "test"]);

/** Wrapper types whose first generic argument a `?` / `.unwrap()` yields. */
export const UNWRAPPABLE: ReadonlySet<string> = new Set(["Option", "Result"]);
/** Smart pointers a method call looks through (auto-deref). */
export const DEREF_WRAPPERS: ReadonlySet<string> = new Set(["Box", "Rc", "Arc"]);
/** Methods of the smart pointers themselves (never looked up on the pointee). */
export const POINTER_METHODS: ReadonlySet<string> = new Set([
  "clone",
  "as_ref",
  "as_mut",
  "borrow",
  "borrow_mut",
  "downgrade",
  "into_inner",
  "leak",
  "into_raw",
  "as_ptr",
  "get_mut",
  "make_mut",
  "try_unwrap",
  "strong_count",
  "weak_count",
  "ptr_eq",
  "pin",
]);
/** Methods of Option / Result that yield the wrapped value. */
export const UNWRAP_METHODS: ReadonlySet<string> = new Set([
  "unwrap",
  "expect",
  "unwrap_or",
  "unwrap_or_default",
  "unwrap_or_else",
  "unwrap_unchecked",
]);

/** Traits the standard library derives, and the methods a derive provides. */
export const DERIVE_METHODS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    Clone: ["clone", "clone_from"],
    Copy: [],
    Default: ["default"],
    Debug: ["fmt"],
    PartialEq: ["eq", "ne"],
    Eq: [],
    PartialOrd: ["partial_cmp", "lt", "le", "gt", "ge"],
    Ord: ["cmp", "max", "min", "clamp"],
    Hash: ["hash"],
  }).map(([k, v]) => [k, new Set(v)]),
);

/** std collections whose iteration yields their first generic argument. */
export const COLLECTIONS: ReadonlySet<string> = new Set(["Vec", "VecDeque", "LinkedList", "HashSet", "BTreeSet", "BinaryHeap", "Option"]);
/** std maps: `.keys()` / `.values()` yield their first / second argument. */
export const MAPS: ReadonlySet<string> = new Set(["HashMap", "BTreeMap"]);
/** Methods turning a collection into an iterator over its elements (or a map's keys / values). */
export const ITER_METHODS: ReadonlySet<string> = new Set(["iter", "iter_mut", "into_iter", "drain", "keys", "values", "values_mut"]);

/** Bounds that give a generic parameter no methods worth binding. */
export const MARKER_TRAITS: ReadonlySet<string> = new Set(["Send", "Sync", "Sized", "Unpin", "Copy", "Eq", "UnwindSafe", "RefUnwindSafe"]);
