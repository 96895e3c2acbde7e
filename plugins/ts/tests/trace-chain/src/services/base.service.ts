import { query } from "../db";

export abstract class BaseService {
  protected load(id: string) {
    return query(`select ${id}`);
  }
}
