export class Context {
  json(v: unknown): string {
    return JSON.stringify(v)
  }
  text(t: string): string {
    return t
  }
}

export type Next = () => Promise<void>

export class Alpha {
  run(): void {}
}

export class Beta {
  run(): void {}
}
