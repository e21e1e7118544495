import { Command } from '@nestjs/cqrs';
import type { CardSetupResponse } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class StartCardSetupCommand extends Command<CardSetupResponse> {
  constructor(
    readonly actor: Actor,
    readonly context: RequestContext,
  ) {
    super();
  }
}
