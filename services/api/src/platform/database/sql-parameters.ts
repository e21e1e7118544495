/** Collects positional parameters for one SQL statement and answers their `$n` placeholders. */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
