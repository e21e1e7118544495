import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RemoveSavedCardCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly context: RequestContext,
  ) {
    super();
  }
}
