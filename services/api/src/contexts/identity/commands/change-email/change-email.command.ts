import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { ChangeEmailRequestDto } from './change-email.request.dto';

export class ChangeEmailCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly request: ChangeEmailRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
