import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ResetTwoFactorCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
