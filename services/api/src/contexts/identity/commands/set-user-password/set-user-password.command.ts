import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class SetUserPasswordCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
