function fetch(url: string) {
  return url;
}

export function go() {
  return fetch("/z");
}
