import type { UserRole } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeUserRoleCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly role: UserRole,
    readonly context: RequestContext,
  ) {}
}
