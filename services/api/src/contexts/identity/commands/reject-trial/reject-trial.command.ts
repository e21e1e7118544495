import type { Actor, RequestContext } from '../../../../platform/auth';

export class RejectTrialCommand {
  constructor(
    readonly actor: Actor,
    readonly context: RequestContext,
  ) {}
}
