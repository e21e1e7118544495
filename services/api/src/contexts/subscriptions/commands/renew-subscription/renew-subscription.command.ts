import type { Actor, RequestContext } from '../../../../platform/auth';

export class RenewSubscriptionCommand {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly context: RequestContext,
  ) {}
}
