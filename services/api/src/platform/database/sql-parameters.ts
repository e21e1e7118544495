import { escapeLiteral } from 'pg';

/** Collects positional parameters for one SQL statement and answers their `$n` placeholders. */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /**
   * The statement with each `$n` replaced by its value as an escaped SQL literal, for the statements PostgreSQL
   * runs without parameters (`COPY … TO STDOUT`). Placeholders keep the casts written after them; a value of a kind
   * this does not know is a bug in the caller, not input, so it throws.
   */
  inline(sql: string): string {
    return sql.replace(/\$(\d+)/g, (_placeholder, position: string) => {
      const index = Number(position) - 1;
      if (index < 0 || index >= this.values.length) throw new Error(`No value for $${position}`);
      return sqlLiteral(this.values[index]);
    });
  }
}

function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  // An empty ARRAY[] needs the cast that follows its placeholder, which every list filter writes.
  if (Array.isArray(value)) return `ARRAY[${value.map(sqlLiteral).join(', ')}]`;
  throw new Error(`No SQL literal for a ${typeof value}`);
}
