import { Command } from '@nestjs/cqrs';
import type { ViewAsOpened } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export type { ViewAsOpened };

export class OpenViewAsCommand extends Command<ViewAsOpened> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
