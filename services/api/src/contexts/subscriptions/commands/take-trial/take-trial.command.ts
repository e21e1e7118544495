import type { Actor, RequestContext } from '../../../../platform/auth';
import type { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

export class TakeTrialCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly request: LoginAndPasswordDto,
    readonly context: RequestContext,
  ) {}
}
