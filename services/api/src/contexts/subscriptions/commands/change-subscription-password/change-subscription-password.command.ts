import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeSubscriptionPasswordCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
