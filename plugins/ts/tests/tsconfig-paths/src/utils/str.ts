export function upper(s: string) {
  return s.toUpperCase();
}
