import type { UserStatus } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangeUserStatusCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly status: UserStatus,
    readonly context: RequestContext,
  ) {}
}
