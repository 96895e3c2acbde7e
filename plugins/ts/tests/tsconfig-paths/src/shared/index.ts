export function share() {}
