import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningEmbeddedPort } from './embedded-database';

/**
 * How a process that used the embedded PostgreSQL ends (docs/adr/0064): the library's own exit hook, which calls a
 * callback `exit` never passes, is taken back, so a process that stopped its server cleanly ends with its own exit
 * code (it ended every jest run on the embedded database with code 1); one that exits without stopping it still
 * leaves no server running.
 */
const SCRIPT = `
const { chmodSync } = require('node:fs');
const { openEmbeddedDatabase } = require('./src/platform/database/embedded-database.ts');
(async () => {
  const [dataDir, mode] = process.argv.slice(1);
  chmodSync(dataDir, 0o755);
  const handle = await openEmbeddedDatabase({ dataDir, persistent: false });
  if (mode === 'stop') await handle.stop();
  else process.exit(0);
})();
`;

function run(dataDir: string, mode: 'stop' | 'leave'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', SCRIPT, dataDir, mode], {
      cwd: join(__dirname, '..', '..', '..'),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** Whether a postmaster runs on the data directory, by the launcher's own reading of its postmaster.pid. */
function postmasterAlive(dataDir: string): boolean {
  return runningEmbeddedPort(join(dataDir, 'pg')) !== null;
}

async function gone(dataDir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!postmasterAlive(dataDir)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !postmasterAlive(dataDir);
}

describe('a process that used the embedded PostgreSQL', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kupa-exit-'));
    dirs.push(dir);
    return dir;
  };

  it('ends with code 0 and nothing on stderr after stopping its server', async () => {
    const dir = dataDir();
    const ended = await run(dir, 'stop');
    expect(ended).toEqual({ code: 0, stderr: '' });
    expect(postmasterAlive(dir)).toBe(false);
  }, 60_000);

  it('leaves no server running when it calls process.exit without stopping it', async () => {
    const dir = dataDir();
    const ended = await run(dir, 'leave');
    expect(ended.code).toBe(0);
    expect(await gone(dir, 15_000)).toBe(true);
  }, 60_000);
});
