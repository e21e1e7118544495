import type { Actor, RequestContext } from '../../../../platform/auth';

export class ResetTwoFactorCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly context: RequestContext,
  ) {}
}
