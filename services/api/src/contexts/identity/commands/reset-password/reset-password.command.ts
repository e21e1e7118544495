import type { RequestContext } from '../../../../platform/auth';
import type { ResetPasswordRequestDto } from './reset-password.request.dto';

export class ResetPasswordCommand {
  constructor(
    readonly request: ResetPasswordRequestDto,
    readonly context: RequestContext,
  ) {}
}
