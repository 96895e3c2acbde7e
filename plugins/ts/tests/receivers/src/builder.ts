import { SqlRepo, User } from "./repo";

export class Query {
  static create(): Query {
    return new this();
  }
  where(cond: string): this {
    return this;
  }
  run(): User[] {
    return [];
  }
  pick<T>(key: string): this {
    return this;
  }
}

export class PagedQuery extends Query {
  page(n: number): this {
    return this;
  }
}

function isSql(r: unknown): r is SqlRepo {
  return r instanceof SqlRepo;
}

export function fluent(r: SqlRepo | User, s: SqlRepo) {
  new PagedQuery().where("a").page(2).run();
  Query.create().where("b");
  if (isSql(r)) r.find("1");
  if (s instanceof SqlRepo) s.find("2");
}

export async function awaited(q: PagedQuery) {
  await q.pick<string>("a").page(1);
}
