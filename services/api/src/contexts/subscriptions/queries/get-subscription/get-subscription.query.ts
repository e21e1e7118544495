import type { Actor } from '../../../../platform/auth';

export class GetSubscriptionQuery {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
  ) {}
}
