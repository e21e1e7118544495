import type { DataSource } from 'typeorm';

/** How far one processor is behind the store. */
export interface ProcessorLagReading {
  processor: string;
  /** Events after its checkpoint, counted up to `PROCESSOR_LAG_COUNT_CAP`. */
  events: number;
  /** Age of the oldest of those events, in seconds (0 when there is none). */
  seconds: number;
  /** The commit position of the last event it passed (0 before its first). */
  checkpointPosition: number;
}

/**
 * Counting stops here, so that a processor far behind costs one bounded index scan per reading rather than a scan of
 * the whole history; a lag this large reads as the cap. The scan stops after this many commits (each holds one event
 * or more, ADR 0128).
 */
export const PROCESSOR_LAG_COUNT_CAP = 1_000_000;

/**
 * Reads every named processor's lag from its checkpoint, in the store's processing order (commit position). A
 * processor without a checkpoint row has not led yet and is behind by everything. The events counted include those a
 * processor does not handle: its checkpoint passes them only when it reads them.
 */
export async function readProcessorLag(
  dataSource: DataSource,
  processors: readonly string[],
): Promise<ProcessorLagReading[]> {
  if (processors.length === 0) return [];
  const rows: { name: string; events: number; seconds: number | null; position: string }[] = await dataSource.query(
    `SELECT p.name, at.commit_position::text AS position,
            (SELECT least(coalesce(sum(waiting.event_count), 0), $2)::int FROM (
               SELECT c.event_count FROM event_commits c WHERE c.commit_position > at.commit_position LIMIT $2) AS waiting)
              AS events,
            (SELECT extract(epoch FROM clock_timestamp() - e.recorded_at)::float8
               FROM event_commits c JOIN events e ON e.global_position = c.first_position
              WHERE c.commit_position > at.commit_position
              ORDER BY c.commit_position LIMIT 1) AS seconds
       FROM unnest($1::text[]) AS p(name)
       LEFT JOIN checkpoints c ON c.name = p.name
      CROSS JOIN LATERAL (SELECT coalesce(c.commit_position, 0) AS commit_position) AS at
      ORDER BY p.name`,
    [processors, PROCESSOR_LAG_COUNT_CAP],
  );
  return rows.map((row) => ({
    processor: row.name,
    events: row.events,
    seconds: Math.max(0, Math.round((row.seconds ?? 0) * 1000) / 1000),
    checkpointPosition: Number(row.position),
  }));
}

/**
 * The newest commit position: how far readers of the whole store can read (docs/adr/0061). Processors' checkpoints
 * are measured against it; unlike the server-wide snapshot horizon it replaced, no other transaction holds it back.
 */
export async function readCommitHead(dataSource: DataSource): Promise<number> {
  const rows: { head: string }[] = await dataSource.query(
    'SELECT coalesce(max(commit_position), 0)::text AS head FROM event_commits',
  );
  return Number(rows[0].head);
}
