import type { Actor, RequestContext } from '../../../../platform/auth';

export class DeactivateRecurrenceCommand {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly context: RequestContext,
  ) {}
}
