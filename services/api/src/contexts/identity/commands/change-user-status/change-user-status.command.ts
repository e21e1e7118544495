import { Command } from '@nestjs/cqrs';
import type { User, UserStatus } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeUserStatusCommand extends Command<User> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly status: UserStatus,
    readonly context: RequestContext,
  ) {
    super();
  }
}
