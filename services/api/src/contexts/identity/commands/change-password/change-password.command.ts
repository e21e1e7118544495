import type { Actor, RequestContext } from '../../../../platform/auth';
import type { ChangePasswordRequestDto } from './change-password.request.dto';

export class ChangePasswordCommand {
  constructor(
    readonly actor: Actor,
    readonly request: ChangePasswordRequestDto,
    readonly context: RequestContext,
  ) {}
}
