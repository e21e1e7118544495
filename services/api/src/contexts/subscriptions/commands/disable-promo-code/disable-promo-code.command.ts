import { Command } from '@nestjs/cqrs';
import type { PromoCodeView } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class DisablePromoCodeCommand extends Command<PromoCodeView> {
  constructor(
    readonly code: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
