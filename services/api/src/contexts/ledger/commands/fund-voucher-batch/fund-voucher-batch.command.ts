import { Command } from '@nestjs/cqrs';
import type { VoucherBatch, VoucherFunding } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class FundVoucherBatchCommand extends Command<VoucherBatch> {
  constructor(
    readonly batchId: string,
    readonly funding: VoucherFunding,
    readonly comment: string,
    /** A DAYS batch sold: what was received for it. */
    readonly receivedMinor: number | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
