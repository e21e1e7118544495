import { Command } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

export class TakeTrialCommand extends Command<Subscription> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly request: LoginAndPasswordDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
