// Java type and name text as written: erasure of generics and annotations, qualified-name
// splitting, and the few JDK facts the resolver needs (java.lang names, Object / Enum members).

/** Remove `@Name` and `@Name(...)` annotations (balanced parentheses). */
export function stripAnnotations(t: string): string {
  if (!t.includes("@")) return t;
  let out = "";
  let i = 0;
  while (i < t.length) {
    const c = t[i]!;
    if (c !== "@") {
      out += c;
      i++;
      continue;
    }
    i++;
    while (i < t.length && /[\w$.]/.test(t[i]!)) i++;
    let j = i;
    while (j < t.length && /\s/.test(t[j]!)) j++;
    if (t[j] === "(") {
      let depth = 0;
      for (i = j; i < t.length; i++) {
        if (t[i] === "(") depth++;
        else if (t[i] === ")" && --depth === 0) {
          i++;
          break;
        }
      }
    }
  }
  return out;
}

/** Remove balanced `<...>` type arguments. */
export function eraseGenerics(t: string): string {
  if (!t.includes("<")) return t;
  let out = "";
  let depth = 0;
  for (const c of t) {
    if (c === "<") depth++;
    else if (c === ">") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out;
}

/** A type as written → its erasure without annotations, modifiers and whitespace: `Map.Entry`, `int[]`, `String...`. */
export function cleanType(t: string): string {
  let s = stripAnnotations(t);
  s = eraseGenerics(s);
  s = s.replace(/\b(?:final)\b/g, " ");
  return s.replace(/\s+/g, "");
}

/** Split on a separator at nesting depth 0 of `<>`, `()` and `[]`. */
export function splitTop(t: string, sep = ","): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of t) {
    if (c === "<" || c === "(" || c === "[") depth++;
    else if (c === ">" || c === ")" || c === "]") depth = Math.max(0, depth - 1);
    if (c === sep && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (cur.trim() !== "") out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

export const PRIMITIVES: ReadonlySet<string> = new Set([
  "boolean",
  "byte",
  "char",
  "short",
  "int",
  "long",
  "float",
  "double",
  "void",
]);

const NOT_TYPES: ReadonlySet<string> = new Set([...PRIMITIVES, "extends", "super", "final", "var", "?"]);

/** Every type name a declared type mentions (`Map<String, List<Item>>` → Map, String, List, Item), qualified names kept whole. */
export function typeNamesIn(t: string): string[] {
  const s = stripAnnotations(t);
  const out: string[] = [];
  for (const m of s.matchAll(/[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*/g)) {
    const name = m[0].replace(/\s+/g, "");
    if (!NOT_TYPES.has(name)) out.push(name);
  }
  return out;
}

/** The simple name of a qualified name: `java.util.List` → `List`. */
export function lastSegment(q: string): string {
  const i = q.lastIndexOf(".");
  return i < 0 ? q : q.slice(i + 1);
}

/** An identifier path (`a.b.C`, `this.x`), or undefined when the text is any other expression. */
export function identPath(t: string): string[] | undefined {
  const s = t.replace(/\s+/g, "");
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(s)) return undefined;
  return s.split(".");
}

export function isCapitalised(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 65 && c <= 90;
}

/** Public types of java.lang, visible in every compilation unit without an import. */
export const JAVA_LANG: ReadonlySet<string> = new Set([
  "AbstractMethodError",
  "Appendable",
  "ArithmeticException",
  "ArrayIndexOutOfBoundsException",
  "ArrayStoreException",
  "AssertionError",
  "AutoCloseable",
  "Boolean",
  "BootstrapMethodError",
  "Byte",
  "Character",
  "CharSequence",
  "Class",
  "ClassCastException",
  "ClassCircularityError",
  "ClassFormatError",
  "ClassLoader",
  "ClassNotFoundException",
  "ClassValue",
  "Cloneable",
  "CloneNotSupportedException",
  "Comparable",
  "Deprecated",
  "Double",
  "Enum",
  "EnumConstantNotPresentException",
  "Error",
  "Exception",
  "ExceptionInInitializerError",
  "Float",
  "FunctionalInterface",
  "IllegalAccessError",
  "IllegalAccessException",
  "IllegalArgumentException",
  "IllegalCallerException",
  "IllegalMonitorStateException",
  "IllegalStateException",
  "IllegalThreadStateException",
  "IncompatibleClassChangeError",
  "IndexOutOfBoundsException",
  "InheritableThreadLocal",
  "InstantiationError",
  "InstantiationException",
  "Integer",
  "InternalError",
  "InterruptedException",
  "Iterable",
  "LayerInstantiationException",
  "LinkageError",
  "Long",
  "MatchException",
  "Math",
  "Module",
  "ModuleLayer",
  "NegativeArraySizeException",
  "NoClassDefFoundError",
  "NoSuchFieldError",
  "NoSuchFieldException",
  "NoSuchMethodError",
  "NoSuchMethodException",
  "NullPointerException",
  "Number",
  "NumberFormatException",
  "Object",
  "OutOfMemoryError",
  "Override",
  "Package",
  "Process",
  "ProcessBuilder",
  "ProcessHandle",
  "Readable",
  "Record",
  "ReflectiveOperationException",
  "Runnable",
  "Runtime",
  "RuntimeException",
  "RuntimePermission",
  "SafeVarargs",
  "ScopedValue",
  "SecurityException",
  "SecurityManager",
  "Short",
  "StackOverflowError",
  "StackTraceElement",
  "StackWalker",
  "StrictMath",
  "String",
  "StringBuffer",
  "StringBuilder",
  "StringIndexOutOfBoundsException",
  "SuppressWarnings",
  "System",
  "Thread",
  "ThreadDeath",
  "ThreadGroup",
  "ThreadLocal",
  "Throwable",
  "TypeNotPresentException",
  "UnknownError",
  "UnsatisfiedLinkError",
  "UnsupportedClassVersionError",
  "UnsupportedOperationException",
  "VerifyError",
  "VirtualMachineError",
  "Void",
  "WrongThreadException",
]);

/** Methods every class inherits from java.lang.Object. */
export const OBJECT_METHODS: ReadonlySet<string> = new Set([
  "equals",
  "hashCode",
  "toString",
  "getClass",
  "clone",
  "finalize",
  "notify",
  "notifyAll",
  "wait",
]);

/** Members every enum has from java.lang.Enum or by synthesis (`values`, `valueOf`). */
export const ENUM_METHODS: ReadonlySet<string> = new Set([
  "name",
  "ordinal",
  "compareTo",
  "getDeclaringClass",
  "describeConstable",
  "values",
  "valueOf",
]);
