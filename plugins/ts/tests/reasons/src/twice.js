function twice() {}
function twice() {}

export function callTwice() {
  twice();
}
