import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { formatVoucherCode, type GeneratedVoucherBatch } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { DayVoucherSubscriptions } from '../../application/day-voucher-subscriptions.port';
import { generateVoucherBatch } from '../../domain/voucher-batch.decider';
import { voucherBatchStreams } from '../../infrastructure/ledger-streams';
import { findVoucherBatch } from '../../infrastructure/voucher-batches.reader';
import { VoucherCodes } from '../../infrastructure/voucher-codes';
import { GenerateVoucherBatchCommand } from './generate-voucher-batch.command';

/** A new batch and its codes, stored hashed and sealed with the event that explains them; no money moves yet. */
@CommandHandler(GenerateVoucherBatchCommand)
export class GenerateVoucherBatchHandler implements ICommandHandler<
  GenerateVoucherBatchCommand,
  GeneratedVoucherBatch
> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly codes: VoucherCodes,
    private readonly dataSource: DataSource,
    private readonly dayVouchers: DayVoucherSubscriptions,
  ) {}

  async execute(command: GenerateVoucherBatchCommand): Promise<GeneratedVoucherBatch> {
    // A day batch names its package as it is on sale now; the name stays with the batch (what the codes promised).
    const daysOf = command.daysOf
      ? { days: command.daysOf.days, ...(await this.dayVouchers.packageOf(command.daysOf.planId)) }
      : undefined;
    const batchId = randomUUID();
    const codes = this.codes.newCodes(command.count);
    const { result } = await this.pipeline.run({
      context: command.context,
      streams: { batch: voucherBatchStreams.ref(batchId) },
      decide: (loaded, { at }) => ({
        events: {
          batch: generateVoucherBatch(
            { batchId, label: command.label, count: command.count, amountMinor: command.amountMinor, daysOf, at },
            loaded.batch.state,
          ),
        },
        result: null,
      }),
      alongside: (tx) => this.codes.store(tx.manager, batchId, codes),
    });
    assert(result === null, 'generation answers after its append');
    const batch = await findVoucherBatch(this.dataSource.manager, batchId);
    assert(batch, `batch ${batchId} is readable after its append`);
    return { batch, codes: codes.map(formatVoucherCode) };
  }
}
