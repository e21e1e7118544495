import { Command } from '@nestjs/cqrs';
import type { VoucherRedemption } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RedeemVoucherCommand extends Command<VoucherRedemption> {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    /** The login and password of the subscription a day code starts when there is none to extend; null without. */
    readonly newSubscription: { login: string; password: string } | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
