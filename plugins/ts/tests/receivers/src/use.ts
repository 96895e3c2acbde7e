import { Cache, type Repo, SqlRepo, User, loadRepo, makeRepo, shared } from "./repo";

export async function use(r: Repo, c: Cache, anything: any, untyped) {
  r.find("1");
  c.find("2");
  const s = new SqlRepo();
  s.find("3");
  const m = makeRepo();
  m.save(new User());
  const l = await loadRepo();
  l.find("4");
  const u = r.find("5");
  u?.greet();
  anything.find("6");
  untyped.find("7");
  const both: SqlRepo | Cache = c;
  both.find("8");
  (s as Repo).save(new User());
  shared.save(new User());
}
