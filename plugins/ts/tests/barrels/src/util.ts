export function slug(s: string) {
  return s;
}
