export function serve() {}
