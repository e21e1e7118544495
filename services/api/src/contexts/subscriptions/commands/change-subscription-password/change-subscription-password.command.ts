import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeSubscriptionPasswordCommand {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {}
}
