// What the views share: the chosen plane, the server's tool list, and a way to switch views.
export const state = {
  plane: "",
  tools: new Set<string>(),
  /** Switch to a view by name (set by main.ts). */
  show: (_view: string) => {},
  /** Open a symbol in the explorer (set by explorer.ts). */
  explore: (_nameOrId: string | number) => {},
  /** Planes changed (a fold landed): views that show counts refresh. */
  onFold: [] as (() => void)[],
};
