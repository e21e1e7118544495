import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pid of the embedded PostgreSQL's postmaster on a data directory, from its postmaster.pid. */
export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Whether a process runs; EPERM means it does, as another user (PostgreSQL runs as postgres when we are root). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
