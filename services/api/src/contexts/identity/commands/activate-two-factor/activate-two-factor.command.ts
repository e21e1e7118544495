import { Command } from '@nestjs/cqrs';
import type { TwoFactorActivation } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ActivateTwoFactorCommand extends Command<TwoFactorActivation> {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
