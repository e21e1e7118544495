import { Command } from '@nestjs/cqrs';
import type { BulkAction, BulkBatch } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { BulkSelection } from '../../application/bulk-selections';

export class StartBulkBatchCommand extends Command<BulkBatch> {
  constructor(
    readonly actor: Actor,
    readonly action: BulkAction,
    readonly selection: BulkSelection,
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
