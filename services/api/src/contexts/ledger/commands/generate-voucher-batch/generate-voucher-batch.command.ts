import { Command } from '@nestjs/cqrs';
import type { GeneratedVoucherBatch } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class GenerateVoucherBatchCommand extends Command<GeneratedVoucherBatch> {
  constructor(
    readonly label: string,
    readonly count: number,
    readonly amountMinor: number,
    /** A DAYS batch: each code adds `days` of the package `planId`. */
    readonly daysOf: { days: number; planId: string } | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
