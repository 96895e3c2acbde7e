export function same() {}
