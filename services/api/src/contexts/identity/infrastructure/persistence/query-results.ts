/** node-postgres answers UPDATE … RETURNING through TypeORM as `[rows, count]`. */
export function firstRows(result: unknown[]): unknown[] {
  return Array.isArray(result[0]) ? (result[0] as unknown[]) : result;
}
