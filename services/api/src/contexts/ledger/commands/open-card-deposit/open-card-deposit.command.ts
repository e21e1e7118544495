import { Command } from '@nestjs/cqrs';
import type { CardCheckoutResponse } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class OpenCardDepositCommand extends Command<CardCheckoutResponse> {
  constructor(
    readonly actor: Actor,
    readonly amountMinor: number,
    readonly context: RequestContext,
  ) {
    super();
  }
}
