import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class DeactivateRecurrenceCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
