import type { Actor, RequestContext } from '../../../../platform/auth';

export class CancelSubscriptionCommand {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly context: RequestContext,
  ) {}
}
