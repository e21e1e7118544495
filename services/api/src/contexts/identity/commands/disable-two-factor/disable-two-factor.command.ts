import type { Actor, RequestContext } from '../../../../platform/auth';

export class DisableTwoFactorCommand {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    readonly context: RequestContext,
  ) {}
}
