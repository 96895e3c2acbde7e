export function record() {}
export function join() {}
