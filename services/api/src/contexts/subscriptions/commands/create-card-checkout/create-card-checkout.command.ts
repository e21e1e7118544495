import { Command } from '@nestjs/cqrs';
import type { CardCheckoutResponse } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { CreateCardCheckoutRequestDto } from './create-card-checkout.request.dto';

export class CreateCardCheckoutCommand extends Command<CardCheckoutResponse> {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly request: CreateCardCheckoutRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
