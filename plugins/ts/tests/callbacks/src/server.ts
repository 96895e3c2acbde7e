import express from "express";

const app = express();

export function handler(req, res) {
  res.send("ok");
}

function validate(x: number) {
  return x > 0;
}

function double(n: number) {
  return n * 2;
}

function tick() {}

export function setup(items: number[]) {
  app.get("/", handler);
  items.filter(validate).map((n) => double(n));
  setTimeout(() => {
    tick();
  }, 10);
  items.forEach(function (i) {
    tick();
  });
}

export class Poller {
  start() {
    setInterval(this.poll, 100);
    [1].forEach((x) => this.poll());
  }
  poll() {}
}
