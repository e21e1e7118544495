import { Command } from '@nestjs/cqrs';
import type { BulkAction, BulkBatch } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { ClientFilter } from '../../../identity';

export class StartBulkBatchCommand extends Command<BulkBatch> {
  constructor(
    readonly actor: Actor,
    readonly action: BulkAction,
    /** Null: every active client. */
    readonly filter: ClientFilter | null,
    readonly reason: string,
    readonly publicNote: string | null,
    readonly amountMinor: number | null,
    readonly days: number | null,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
