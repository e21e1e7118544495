import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeSubscriptionLoginCommand {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly login: string,
    readonly context: RequestContext,
  ) {}
}
