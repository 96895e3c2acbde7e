// Names the JavaScript runtime, the host (Node, browsers) and test runners provide without an
// import. A call to one of them that no binding in scope shadows is never bound to a repo symbol
// (a global `fetch()` is not the repo's `Api.fetch`): it becomes an UnresolvedRef, reason `builtin`.

/** Global values: functions, namespaces and constructors reachable by bare name. */
export const GLOBAL_VALUES: ReadonlySet<string> = new Set([
  // ECMAScript
  "globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN", "parseFloat", "parseInt",
  "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
  "Object", "Function", "Boolean", "Symbol", "Number", "BigInt", "Math", "Date", "String", "RegExp",
  "Array", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
  "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Map", "Set",
  "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "ArrayBuffer", "SharedArrayBuffer",
  "DataView", "Atomics", "JSON", "Promise", "Reflect", "Proxy", "Intl", "Error", "AggregateError",
  "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "Iterator",
  // hosts (Node, browsers, workers)
  "console", "process", "Buffer", "global", "require", "module", "exports", "__dirname", "__filename",
  "setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate",
  "queueMicrotask", "structuredClone", "fetch", "atob", "btoa", "performance", "crypto", "navigator",
  "window", "document", "self", "location", "history", "localStorage", "sessionStorage", "alert",
  "confirm", "prompt", "requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback",
  "getComputedStyle", "matchMedia", "postMessage", "addEventListener", "removeEventListener",
  "dispatchEvent", "URL", "URLSearchParams", "AbortController", "AbortSignal", "TextEncoder",
  "TextDecoder", "Event", "EventTarget", "CustomEvent", "Headers", "Request", "Response", "FormData",
  "Blob", "File", "FileReader", "ReadableStream", "WritableStream", "TransformStream", "WebSocket",
  "Worker", "MessageChannel", "BroadcastChannel", "XMLHttpRequest", "Image", "Notification",
  "IntersectionObserver", "MutationObserver", "ResizeObserver", "DOMParser", "HTMLElement", "Element",
  "Node", "indexedDB", "caches", "customElements", "Deno", "Bun",
  // test runners
  "describe", "it", "test", "expect", "beforeEach", "afterEach", "beforeAll", "afterAll", "before",
  "after", "jest", "vi", "suite", "context", "assert",
]);

/** Global type names (lib.d.ts, DOM, Node) besides the values above. */
export const GLOBAL_TYPES: ReadonlySet<string> = new Set([
  "string", "number", "boolean", "bigint", "symbol", "object", "void", "never", "null", "undefined",
  "Array", "ReadonlyArray", "Map", "ReadonlyMap", "Set", "ReadonlySet", "WeakMap", "WeakSet", "Promise",
  "PromiseLike", "Record", "Pick", "Omit", "Exclude", "Extract", "ReturnType", "Parameters",
  "InstanceType", "Iterable", "Iterator", "IterableIterator", "AsyncIterable", "AsyncIterator",
  "AsyncIterableIterator", "Generator", "AsyncGenerator", "ArrayLike", "PropertyKey", "TemplateStringsArray",
  "Date", "RegExp", "Error", "Function", "Object", "String", "Number", "Boolean", "Symbol", "BigInt",
  "NodeJS", "Buffer", "Uint8Array", "ArrayBuffer", "DataView", "JSON", "Math", "Console",
  "HTMLElement", "HTMLInputElement", "HTMLDivElement", "Element", "Node", "Document", "Window",
  "Event", "MouseEvent", "KeyboardEvent", "EventTarget", "Request", "Response", "Headers", "URL",
  "URLSearchParams", "AbortSignal", "AbortController", "Blob", "File", "FormData", "ReadableStream",
  "WritableStream", "TextEncoder", "TextDecoder", "WebSocket", "Storage", "Crypto",
]);

/** Type names whose members are the runtime's own (calls on values of these types are `builtin`). */
export const BUILTIN_TYPE_NAMES: ReadonlySet<string> = new Set([...GLOBAL_TYPES].filter((t) => t !== "void" && t !== "never"));

/** Wrappers that do not change which members a value has. */
export const TRANSPARENT_GENERICS: ReadonlySet<string> = new Set(["Readonly", "Partial", "Required", "NonNullable", "Awaited"]);

/** Promise-like wrappers, unwrapped for values produced by a call (awaited or not: a method the
 * wrapped type has and the Promise lacks can only be called on the awaited value in valid code). */
export const PROMISE_GENERICS: ReadonlySet<string> = new Set(["Promise", "PromiseLike"]);

/** Members every function has. */
export const FUNCTION_MEMBERS: ReadonlySet<string> = new Set(["call", "apply", "bind", "toString"]);
