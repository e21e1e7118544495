import { Command } from '@nestjs/cqrs';
import type { RenewalFunding, Subscription } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChooseRenewalFundingCommand extends Command<Subscription> {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly funding: RenewalFunding,
    readonly context: RequestContext,
  ) {
    super();
  }
}
