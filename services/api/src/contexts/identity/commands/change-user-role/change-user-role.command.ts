import { Command } from '@nestjs/cqrs';
import type { User, UserRole } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeUserRoleCommand extends Command<User> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly role: UserRole,
    readonly context: RequestContext,
  ) {
    super();
  }
}
