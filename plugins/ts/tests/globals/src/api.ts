export class Api {
  fetch(url: string) {
    return url;
  }
  log(msg: string) {
    return msg;
  }
}

export function record() {}
