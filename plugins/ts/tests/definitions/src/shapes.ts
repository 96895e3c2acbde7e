/** A shape with an area. */
export interface Shape {
  area(): number;
  name: string;
}

export type ShapeList = Shape[];

export enum Kind {
  Circle,
  Square,
}

/** Base of every shape. */
export abstract class Base implements Shape {
  name = "base";
  private cache: Map<string, number> = new Map();
  static count = 0;
  #secret = 1;

  constructor(protected readonly kind: Kind) {}

  abstract area(): number;

  get label(): string {
    return this.name;
  }

  set label(v: string) {
    this.name = v;
  }

  static create(): void {}

  protected async load(): Promise<number> {
    return 1;
  }

  onClick = () => this.area();
}

/** Doubles a number. */
export function double(n: number): number {
  return n * 2;
}

export const triple = (n: number): number => n * 3;

const local = async function () {
  return 1;
};

function outer() {
  function inner() {}
  const nested = () => inner();
  return nested;
}

export const svc = {
  async fetchAll() {},
  count: () => 1,
  legacy: function () {},
};

export default class {}
