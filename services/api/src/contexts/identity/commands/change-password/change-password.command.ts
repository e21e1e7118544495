import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { ChangePasswordRequestDto } from './change-password.request.dto';

export class ChangePasswordCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly request: ChangePasswordRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
