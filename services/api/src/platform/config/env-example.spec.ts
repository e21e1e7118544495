import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, repositoryRoot } from './app-config';

/**
 * deploy/.env.example lists every variable the server reads, and nothing it does not (docs/adr/0037-deployment.md):
 * the names `loadConfig` asks its environment for, recorded while it runs with every optional branch switched on,
 * and those read from `process.env` anywhere else in the server's sources.
 */

/** The operating system's, not Kupa's: `kupa backup` looks for pg_dump on the PATH. */
const SYSTEM_VARIABLES = new Set(['PATH']);

function namesLoadConfigReads(): Set<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kupa-env-'));
  const read = new Set<string>();
  // Values that open every branch: Kafka's prefix and client id are read only with brokers, and so on.
  const values: Record<string, string> = {
    KUPA_DATA_DIR: dataDir,
    KAFKA_BROKERS: 'kafka:9092',
    PROVISIONING_URL: 'https://provisioning.example',
    PROVISIONING_TOKEN: 'token',
    TELEGRAM_BOT_TOKEN: '123456:abcdefghijklmnopqrstuvwxyz',
  };
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  try {
    loadConfig(env);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return read;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === 'test-support' ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(spec|int-spec|api-spec|kafka-spec|fixtures|measure)\.ts$/.test(name)
      ? [path]
      : [];
  });
}

function namesReadElsewhere(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(repositoryRoot(), 'services', 'api', 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/process\.env(?:\.([A-Z0-9_]+)|\['([A-Z0-9_]+)'\])/g))
      if (!SYSTEM_VARIABLES.has(match[1] ?? match[2])) names.add(match[1] ?? match[2]);
  }
  return names;
}

/** `NAME=` lines, and `# NAME=` examples left off. */
function listedNames(): string[] {
  const text = readFileSync(join(repositoryRoot(), 'deploy', '.env.example'), 'utf8');
  return [...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
}

function composeInterpolations(): Set<string> {
  const text = readFileSync(join(repositoryRoot(), 'deploy', 'compose.yaml'), 'utf8');
  return new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]));
}

describe('deploy/.env.example', () => {
  const read = new Set([...namesLoadConfigReads(), ...namesReadElsewhere()]);
  const listed = new Set(listedNames());

  it('finds the variables through the recording environment', () => {
    expect(read.size).toBeGreaterThan(40);
    for (const name of [
      'DATABASE_URL',
      'TRUST_PROXY',
      'KAFKA_TOPIC_PREFIX',
      'PROVISIONING_RETRY_MAX_MS',
      'KUPA_COMMIT',
      'KUPA_ROLE',
      'WEB_CONCURRENCY',
    ])
      expect(read.has(name)).toBe(true);
  });

  it('lists every variable the server reads', () => {
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });

  it('lists nothing the server or compose.yaml does not read', () => {
    const used = new Set([...read, ...composeInterpolations()]);
    expect([...listed].filter((name) => !used.has(name)).sort()).toEqual([]);
  });

  it('lists each name once', () => {
    const names = listedNames();
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
