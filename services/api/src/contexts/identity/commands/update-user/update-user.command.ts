import type { Actor, RequestContext } from '../../../../platform/auth';
import type { UpdateUserRequestDto } from './update-user.request.dto';

export class UpdateUserCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly request: UpdateUserRequestDto,
    readonly context: RequestContext,
  ) {}
}
