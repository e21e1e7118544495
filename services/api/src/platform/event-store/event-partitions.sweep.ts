import type { DataSource } from 'typeorm';
import type { Sweep, SweepPass } from '../jobs';
import { makePartitionsAhead } from './event-partitions';

export const EVENT_PARTITIONS_SWEEP = 'event-partitions-ahead';
/**
 * How often the partitions ahead are checked (once across the fleet). Two whole partitions of ten million positions
 * ahead last weeks at the measured append rates, so an hour leaves room for many missed runs.
 */
export const EVENT_PARTITIONS_INTERVAL_MS = 60 * 60_000;

/**
 * Keeps `EVENT_PARTITIONS_AHEAD` empty partitions of `events` beyond the position sequence once the operator has run
 * `kupa events partition` (docs/adr/0114-partitioned-events.md); an append past the last partition would fail. Does
 * nothing while `events` is the plain table.
 */
export class EventPartitionsSweep implements Sweep {
  readonly name = EVENT_PARTITIONS_SWEEP;
  readonly intervalMs = EVENT_PARTITIONS_INTERVAL_MS;

  constructor(private readonly dataSource: DataSource) {}

  async sweep(): Promise<SweepPass> {
    const made = await makePartitionsAhead(this.dataSource);
    return { acted: made.length, more: false };
  }
}
