export function html(parts: TemplateStringsArray, ...values: unknown[]): string {
  return parts.join("") + values.join("");
}

export const sql = {
  raw(parts: TemplateStringsArray): string {
    return parts.join("");
  },
};

export function page(name: string): string {
  return html`<p>${name}</p>` + sql.raw`select 1`;
}
