import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class DisableTwoFactorCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly code: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
