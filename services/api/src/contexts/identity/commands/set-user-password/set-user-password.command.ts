import type { Actor, RequestContext } from '../../../../platform/auth';

export class SetUserPasswordCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {}
}
