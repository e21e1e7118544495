import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AUDIT_LOG_PROJECTION_NAME } from './audit-log.projection';

/** The longest a read of the log waits for its processor; a stalled processor then shows the log as it stands. */
export const AUDIT_LOG_CATCH_UP_LIMIT_MS = 2000;
const AUDIT_LOG_CATCH_UP_PAUSE_MS = 10;

/**
 * The log is written after the commit by its processor (docs/adr/0126). A read first waits, within a bound, until
 * the processor has passed every event committed before the read began, so that staff (and specs) see the change
 * they have just made, as they did when the log was written in the append. One round trip when it has.
 */
@Injectable()
export class AuditLogCatchUp {
  constructor(private readonly dataSource: DataSource) {}

  async wait(limitMs = AUDIT_LOG_CATCH_UP_LIMIT_MS): Promise<boolean> {
    const deadline = Date.now() + limitMs;
    const [{ head, at }]: Array<{ head: string; at: string }> = await this.dataSource.query(
      `SELECT (SELECT coalesce(max(commit_position), 0) FROM event_commits)::text AS head,
              (SELECT coalesce(max(commit_position), 0) FROM checkpoints WHERE name = $1)::text AS at`,
      [AUDIT_LOG_PROJECTION_NAME],
    );
    let position = BigInt(at);
    while (position < BigInt(head) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, AUDIT_LOG_CATCH_UP_PAUSE_MS));
      const rows: Array<{ at: string }> = await this.dataSource.query(
        'SELECT commit_position::text AS at FROM checkpoints WHERE name = $1',
        [AUDIT_LOG_PROJECTION_NAME],
      );
      position = BigInt(rows[0]?.at ?? '0');
    }
    return position >= BigInt(head);
  }
}
