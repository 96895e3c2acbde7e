// Small DOM helpers: element building (text always as text, never as HTML — everything shown
// comes from a repository and is untrusted), status messages.

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | ((e: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v as EventListener);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function clear(el: Element, ...children: Child[]): void {
  el.replaceChildren(...(children.filter((c) => c !== null && c !== undefined && c !== false) as (Node | string)[]));
}

export function status(text: string): void {
  const s = document.getElementById("status");
  if (s) s.textContent = text;
}

/** An error as a visible, announced message inside `el`. */
export function showError(el: Element, e: unknown): void {
  clear(el, h("pre", { class: "error", role: "alert" }, e instanceof Error ? e.message : String(e)));
}

export function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

/** Label colours (WCAG-friendly on white for text; used as node fill in the graph). */
export const LABEL_COLOURS: Record<string, string> = {
  Module: "#6b4fbb",
  File: "#5a6270",
  Function: "#1f6feb",
  Method: "#0b7a75",
  Class: "#b35900",
  Interface: "#8250df",
  Struct: "#9a6700",
  Enum: "#bf3989",
  Trait: "#7d4e00",
  TypeAlias: "#57606a",
  Const: "#116329",
  Var: "#4d7c0f",
  Field: "#6e7781",
  UnresolvedRef: "#cf222e",
  External: "#8c959f",
};

export function labelColour(label: string): string {
  return LABEL_COLOURS[label] ?? "#444c56";
}

/** Edge styles by type: colour and thickness (the legend shows them). */
export const EDGE_STYLES: Record<string, { color: string; size: number }> = {
  CALLS: { color: "#1f6feb", size: 2 },
  CONTAINS: { color: "#c4c9d0", size: 1 },
  IMPORTS: { color: "#2da44e", size: 1.2 },
  EXTENDS: { color: "#8250df", size: 2.5 },
  IMPLEMENTS: { color: "#a475f9", size: 2.5 },
  REFERENCES: { color: "#0b7a75", size: 1 },
  INSTANTIATES: { color: "#b35900", size: 1.6 },
  USES_TYPE: { color: "#9a6700", size: 1 },
};

export function edgeStyle(type: string, unresolved: boolean): { color: string; size: number } {
  if (unresolved) return { color: "#ff8182", size: 1.2 };
  return EDGE_STYLES[type] ?? { color: "#8c959f", size: 1 };
}
