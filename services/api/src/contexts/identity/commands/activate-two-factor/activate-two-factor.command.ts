import type { Actor, RequestContext } from '../../../../platform/auth';

export class ActivateTwoFactorCommand {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    readonly context: RequestContext,
  ) {}
}
