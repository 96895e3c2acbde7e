// A callback parameter named like a module's export is the callback's: the export is still the
// module-level function (it was read with whatever position the previous module's refs left).
export function json(text: string): number {
  return text.length;
}

export const sizes = ["a", "bb"].map((json) => json.length);
