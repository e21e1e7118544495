/**
 * CPU counting shared by the A/B helpers that run whole servers side by side (`transfer-cpu.ts`, `http-floor.ts`):
 * only the server's own Node processes and the PostgreSQL backends of its own database count, read from `/proc`,
 * because the machine's PostgreSQL serves other databases too.
 */
import type pg from 'pg';
import type { KupaServer } from '../support/kupa-server.ts';
import { nodeTreeOf, processRole, readProcessTable } from './stats.ts';

/** A server under measurement: its process tree, and a connection to its database with that database's name. */
export interface MeasuredServer {
  server: Pick<KupaServer, 'pid'>;
  db: pg.Client;
  databaseName: string;
}

/** CPU ticks so far per group (`server api`, `server worker`, …, `postgres (own database)`), per process. */
export async function cpuTicks(party: MeasuredServer): Promise<Map<string, Map<number, number>>> {
  const backends = await party.db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [party.databaseName],
  );
  const table = readProcessTable();
  const groups = new Map<string, Map<number, number>>();
  const add = (group: string, pid: number) => {
    const entry = table.get(pid);
    if (!entry) return;
    if (!groups.has(group)) groups.set(group, new Map());
    groups.get(group)!.set(pid, entry.cpuTicks);
  };
  for (const pid of nodeTreeOf(party.server.pid, table)) add(`server ${processRole(pid)}`, pid);
  for (const { pid } of backends.rows) add('postgres (own database)', pid);
  return groups;
}

/** How many processors have not yet reached the newest commit. */
export async function processorsBehind(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ behind: number }>(
    `SELECT count(*)::int AS behind FROM checkpoints
      WHERE commit_position < (SELECT coalesce(max(commit_position), 0) FROM event_commits)`,
  );
  return rows[0].behind;
}
