export function query(sql: string) {
  return sql;
}
