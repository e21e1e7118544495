import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { VoucherBatch } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { fundVoucherBatch } from '../../domain/voucher-batch.decider';
import { voucherBatchStreams } from '../../infrastructure/ledger-streams';
import { findVoucherBatch } from '../../infrastructure/voucher-batches.reader';
import { FundVoucherBatchCommand } from './fund-voucher-batch.command';

/** Records the batch sold or given away: its whole worth enters `liability:vouchers`, and its codes redeem. */
@CommandHandler(FundVoucherBatchCommand)
export class FundVoucherBatchHandler implements ICommandHandler<FundVoucherBatchCommand, VoucherBatch> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: FundVoucherBatchCommand): Promise<VoucherBatch> {
    await this.pipeline.run({
      context: command.context,
      streams: { batch: voucherBatchStreams.ref(command.batchId) },
      decide: (loaded, { at }) => ({
        events: {
          batch: fundVoucherBatch(
            {
              funding: command.funding,
              comment: command.comment,
              receivedMinor: command.receivedMinor,
              transactionId: randomUUID(),
              at,
            },
            loaded.batch.state,
          ),
        },
        result: null,
      }),
    });
    const batch = await findVoucherBatch(this.dataSource.manager, command.batchId);
    assert(batch, `batch ${command.batchId} is readable after its funding`);
    return batch;
  }
}
