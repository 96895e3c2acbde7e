export class User {
  greet() {
    return "hi";
  }
}

export interface Repo {
  find(id: string): User | null;
  save(u: User): void;
}

export class SqlRepo implements Repo {
  find(id: string): User | null {
    return null;
  }
  save(u: User) {}
}

/** Has a `find` too: never merged with SqlRepo.find. */
export class Cache {
  find(id: string) {
    return id;
  }
}

export function makeRepo(): SqlRepo {
  return new SqlRepo();
}

export async function loadRepo(): Promise<SqlRepo> {
  return new SqlRepo();
}

export const shared = new SqlRepo();
