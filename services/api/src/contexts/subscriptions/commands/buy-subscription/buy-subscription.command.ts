import type { Actor, RequestContext } from '../../../../platform/auth';
import type { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

export class BuySubscriptionCommand {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly request: LoginAndPasswordDto,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {}
}
