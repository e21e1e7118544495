import { Command } from '@nestjs/cqrs';
import type { VoucherBatch, VoucherFunding } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class FundVoucherBatchCommand extends Command<VoucherBatch> {
  constructor(
    readonly batchId: string,
    readonly funding: VoucherFunding,
    readonly comment: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
