export function sign(payload: string): string {
  return payload;
}
export function verify(token: string): boolean {
  return token.length > 0;
}
export function decode(token: string): string {
  return token;
}
