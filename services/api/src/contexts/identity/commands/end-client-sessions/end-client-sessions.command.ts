import { Command } from '@nestjs/cqrs';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { EndClientSessionsRequestDto } from '../../infrastructure/sessions/sessions.http';

export class EndClientSessionsCommand extends Command<{ ended: number }> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly request: EndClientSessionsRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
