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

/**
 * An edge's look: colour, thickness and dash pattern in pixels (gapSize 0: a solid line), so a
 * type reads apart from its neighbours by more than colour (the legend shows all three).
 */
export interface EdgeStyle {
  color: string;
  /** What the plain layer draws: the colour for a solid edge, transparent for a dashed one. */
  plainColor: string;
  size: number;
  dashSize: number;
  gapSize: number;
}

const CLEAR = "#00000000";
const solid = (color: string, size: number): EdgeStyle => ({ color, plainColor: color, size, dashSize: 1, gapSize: 0 });
const dashed = (color: string, size: number): EdgeStyle => ({ color, plainColor: CLEAR, size, dashSize: 7, gapSize: 4 });
const dotted = (color: string, size: number): EdgeStyle => ({ color, plainColor: CLEAR, size, dashSize: 2, gapSize: 3 });

/** Edge styles by type: calls, containment, inheritance and instantiation solid; imports and implements dashed; references and type uses dotted. */
export const EDGE_STYLES: Record<string, EdgeStyle> = {
  CALLS: solid("#1f6feb", 2),
  CONTAINS: solid("#c4c9d0", 1),
  IMPORTS: dashed("#2da44e", 1.2),
  EXTENDS: solid("#8250df", 2.5),
  IMPLEMENTS: dashed("#a475f9", 2.5),
  REFERENCES: dotted("#0b7a75", 1.2),
  INSTANTIATES: solid("#b35900", 1.6),
  USES_TYPE: dotted("#9a6700", 1.2),
};

/** An unresolved call site: dashed red, whatever its type. */
export const UNRESOLVED_STYLE: EdgeStyle = dashed("#cf222e", 1.4);

export function edgeStyle(type: string, unresolved: boolean): EdgeStyle {
  if (unresolved) return UNRESOLVED_STYLE;
  return EDGE_STYLES[type] ?? solid("#8c959f", 1);
}
