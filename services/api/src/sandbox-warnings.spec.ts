import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, sandboxWarnings, warnOfSandboxes } from './platform/config';
import { JsonLogger } from './platform/observability';

interface LogLine {
  level: string;
  context?: string;
  msg: string;
}

/** What `warnOfSandboxes` writes through the JSON logger both process kinds use, one parsed line per entry. */
function loggedWarnings(env: NodeJS.ProcessEnv): { lines: LogLine[]; expected: string[] } {
  const written: string[] = [];
  const config = loadConfig(env);
  warnOfSandboxes(
    config,
    JsonLogger.create({ level: config.logLevel, destination: { write: (line) => void written.push(line) } }),
  );
  return { lines: written.map((line) => JSON.parse(line) as LogLine), expected: sandboxWarnings(config) };
}

describe('the sandbox warning of a worker-only process', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kupa-sandbox-warnings-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("logs each sandbox a KUPA_ROLE=worker process runs once, as a warning, with the HTTP processes' lines", () => {
    const database = { KUPA_DATA_DIR: dataDir, DATABASE_URL: 'postgres://kupa@db.example:5432/kupa' };
    const { lines, expected } = loggedWarnings({ ...database, KUPA_ROLE: 'worker', KUPA_SANDBOX: '1' });
    expect(expected).toEqual([
      expect.stringMatching(/^SANDBOX CASHIER ON: .*KUPA_SANDBOX=1/),
      expect.stringMatching(/^SANDBOX CARD ON: .*KUPA_SANDBOX=1/),
      expect.stringMatching(/^STREAMING SIMULATOR ON: .*KUPA_SANDBOX=1/),
    ]);
    expect(lines).toEqual(expected.map((msg) => expect.objectContaining({ level: 'warn', context: 'Sandbox', msg })));

    // A real deployment's worker runs no sandbox and says nothing about one.
    const real = loggedWarnings({
      ...database,
      KUPA_ROLE: 'worker',
      PROVISIONING_URL: 'https://streaming.example',
      PROVISIONING_TOKEN: 'real-token',
    });
    expect(real.lines).toEqual([]);
  });
});
