import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';

export interface ViewAsOpened {
  accessToken: string;
  viewId: string;
  expiresAt: string;
}

export class OpenViewAsCommand extends Command<ViewAsOpened> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
