import { Command } from '@nestjs/cqrs';
import type { PromoCodeView } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';
import type { CreatePromoCodeRequestDto } from './create-promo-code.request.dto';

export class CreatePromoCodeCommand extends Command<PromoCodeView> {
  constructor(
    readonly request: CreatePromoCodeRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
