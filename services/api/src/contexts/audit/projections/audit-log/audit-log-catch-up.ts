import { Injectable } from '@nestjs/common';
import { ProcessorRunner } from '../../../../platform/projections';
import { AUDIT_LOG_PROJECTION_NAME } from './audit-log.projection';

/** The longest a read of the log waits for its processor; a stalled processor then shows the log as it stands. */
export const AUDIT_LOG_CATCH_UP_LIMIT_MS = 2000;

/**
 * The log is written after the commit by its processor (docs/adr/0126). A read first waits, within a bound, until
 * the processor has passed every event committed before the read began (`ProcessorRunner.passedHead`), so that staff
 * (and specs) see the change they have just made, as they did when the log was written in the append.
 */
@Injectable()
export class AuditLogCatchUp {
  constructor(private readonly processors: ProcessorRunner) {}

  wait(limitMs = AUDIT_LOG_CATCH_UP_LIMIT_MS): Promise<boolean> {
    return this.processors.passedHead(AUDIT_LOG_PROJECTION_NAME, limitMs);
  }
}
