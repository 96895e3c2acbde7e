export function settings() {}
