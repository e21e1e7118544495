import { Command } from '@nestjs/cqrs';
import type { VoucherRedemption } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RedeemVoucherCommand extends Command<VoucherRedemption> {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
