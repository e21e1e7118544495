import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PromoCodeView } from '@kupa/proto';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { PromoCodes } from '../../application/promo-codes';
import { disablePromoCode } from '../../domain/promo-code.decider';
import { promoCodeStreams } from '../../infrastructure/promo-code-streams';
import { DisablePromoCodeCommand } from './disable-promo-code.command';

/** An admin disables a code for good; a purchase with it under way either used it first or is refused after. */
@CommandHandler(DisablePromoCodeCommand)
export class DisablePromoCodeHandler implements ICommandHandler<DisablePromoCodeCommand, PromoCodeView> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly promoCodes: PromoCodes,
  ) {}

  async execute({ code: raw, context }: DisablePromoCodeCommand): Promise<PromoCodeView> {
    const code = await this.promoCodes.existingNamedInPath(raw);
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { promo: promoCodeStreams.ref(code) },
      decide: ({ promo }, { at }) => ({ events: { promo: disablePromoCode({ at }, promo.state) }, result: null }),
    });
    const disabled = await this.promoCodes.find(code);
    assert(disabled !== null, 'a code just disabled is in the read model');
    return disabled;
  }
}
