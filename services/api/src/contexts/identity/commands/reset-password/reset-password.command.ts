import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';
import type { ResetPasswordRequestDto } from './reset-password.request.dto';

export class ResetPasswordCommand extends Command<void> {
  constructor(
    readonly request: ResetPasswordRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
