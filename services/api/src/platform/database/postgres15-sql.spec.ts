import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Kupa supports PostgreSQL 15 and later (the server's own is Debian's 15; the embedded default is 17). CI runs every
 * route's spec on the embedded server and only the database-subject specs on PostgreSQL 15
 * (docs/adr/0141-ci-postgres15-pass-database-specs.md), so SQL that only a newer server understands must be caught
 * here, in the source, before it reaches a route no PostgreSQL 15 spec runs. Each entry is a feature added after 15.
 */
const NEWER_THAN_POSTGRES_15: ReadonlyArray<{ feature: string; since: number; pattern: RegExp }> = [
  { feature: 'any_value()', since: 16, pattern: /\bany_value\s*\(/i },
  {
    feature: 'pg_input_is_valid() / pg_input_error_info()',
    since: 16,
    pattern: /\bpg_input_(is_valid|error_info)\s*\(/i,
  },
  { feature: 'IS JSON', since: 16, pattern: /\bIS\s+(NOT\s+)?JSON\b/ },
  {
    feature: 'JSON_ARRAY / JSON_ARRAYAGG / JSON_OBJECTAGG',
    since: 16,
    pattern: /\bJSON_(ARRAY|ARRAYAGG|OBJECTAGG)\s*\(/,
  },
  { feature: 'SYSTEM_USER', since: 16, pattern: /\bSYSTEM_USER\b/ },
  { feature: 'array_sample() / array_shuffle()', since: 16, pattern: /\barray_(sample|shuffle)\s*\(/i },
  { feature: 'date_add() / date_subtract()', since: 16, pattern: /\bdate_(add|subtract)\s*\(/i },
  { feature: 'pg_stat_io', since: 16, pattern: /\bpg_stat_io\b/i },
  {
    feature: 'JSON_TABLE / JSON_EXISTS / JSON_QUERY / JSON_VALUE',
    since: 17,
    pattern: /\bJSON_(TABLE|EXISTS|QUERY|VALUE|SCALAR|SERIALIZE)\s*\(/,
  },
  {
    feature: 'MERGE … RETURNING, merge_action()',
    since: 17,
    pattern: /\bmerge_action\s*\(|\bMERGE\s+INTO\b[^`]*\bRETURNING\b/i,
  },
  { feature: 'WHEN NOT MATCHED BY SOURCE', since: 17, pattern: /\bNOT\s+MATCHED\s+BY\s+SOURCE\b/i },
  { feature: 'transaction_timeout', since: 17, pattern: /\btransaction_timeout\b/ },
  { feature: 'pg_stat_checkpointer', since: 17, pattern: /\bpg_stat_checkpointer\b/ },
  { feature: "COPY's ON_ERROR", since: 17, pattern: /\bCOPY\b[^`]*\bON_ERROR\b/ },
  { feature: "EXPLAIN's SERIALIZE or MEMORY", since: 17, pattern: /\bEXPLAIN\s*\([^)]*\b(SERIALIZE|MEMORY)\b/i },
  { feature: 'random(min, max)', since: 17, pattern: /\brandom\s*\(\s*[-\d$]/ },
  {
    feature: 'uuid_extract_timestamp() / uuid_extract_version()',
    since: 17,
    pattern: /\buuid_extract_(timestamp|version)\s*\(/i,
  },
  { feature: 'uuidv7() / uuidv4()', since: 18, pattern: /\buuidv[47]\s*\(/i },
  { feature: 'RETURNING OLD / NEW', since: 18, pattern: /\bRETURNING\s+(OLD|NEW)\b/ },
  { feature: 'WITHOUT OVERLAPS', since: 18, pattern: /\bWITHOUT\s+OVERLAPS\b/i },
  { feature: 'casefold()', since: 18, pattern: /\bcasefold\s*\(/i },
];

const SOURCE_ROOT = join(__dirname, '..', '..');

/** Every shipped source file: specs may name these features on purpose (this one does); production code must not. */
function sourceFiles(): string[] {
  return (readdirSync(SOURCE_ROOT, { recursive: true }) as string[])
    .filter((path) => path.endsWith('.ts') && !/\.(spec|int-spec|api-spec|kafka-spec)\.ts$/.test(path))
    .map((path) => join(SOURCE_ROOT, path));
}

describe('the SQL Kupa sends runs on PostgreSQL 15', () => {
  it('uses no feature added after PostgreSQL 15', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return NEWER_THAN_POSTGRES_15.filter(({ pattern }) => pattern.test(text)).map(
        ({ feature, since }) => `${relative(SOURCE_ROOT, file)}: ${feature} (PostgreSQL ${since})`,
      );
    });
    expect(found).toEqual([]);
  });

  it.each([
    ['SELECT any_value(amount_minor) FROM payments', 'any_value()'],
    [
      "SELECT * FROM JSON_TABLE(payload, '$.items[*]' COLUMNS (id int))",
      'JSON_TABLE / JSON_EXISTS / JSON_QUERY / JSON_VALUE',
    ],
    ["SET LOCAL transaction_timeout = '5s'", 'transaction_timeout'],
    [
      'MERGE INTO balances b USING x ON b.id = x.id WHEN MATCHED THEN UPDATE SET v = 1 RETURNING b.id',
      'MERGE … RETURNING, merge_action()',
    ],
    ['SELECT uuidv7()', 'uuidv7() / uuidv4()'],
  ])('names %j as newer than PostgreSQL 15', (sql, feature) => {
    expect(NEWER_THAN_POSTGRES_15.filter(({ pattern }) => pattern.test(sql)).map((entry) => entry.feature)).toEqual([
      feature,
    ]);
  });

  it.each([
    'SELECT json_build_object($1, $2), jsonb_agg(x) FROM t',
    'INSERT INTO payments (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id',
    'SELECT random() < 0.5',
    'SELECT pg_current_snapshot(), pg_snapshot_xmin(pg_current_snapshot())',
  ])('lets PostgreSQL 15 SQL through: %j', (sql) => {
    expect(NEWER_THAN_POSTGRES_15.filter(({ pattern }) => pattern.test(sql))).toEqual([]);
  });
});
