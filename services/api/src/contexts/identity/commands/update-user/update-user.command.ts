import { Command } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { UpdateUserRequestDto } from './update-user.request.dto';

export class UpdateUserCommand extends Command<User> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly request: UpdateUserRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
