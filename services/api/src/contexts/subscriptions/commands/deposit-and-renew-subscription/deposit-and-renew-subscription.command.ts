import type { CryptoMethod } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class DepositAndRenewSubscriptionCommand {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly method: CryptoMethod,
    readonly context: RequestContext,
  ) {}
}
