import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { parseAmountToMinor, type PromoCodeView } from '@kupa/proto';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { PromoCodes } from '../../application/promo-codes';
import { createPromoCode } from '../../domain/promo-code.decider';
import { promoCodeStreams } from '../../infrastructure/promo-code-streams';
import { CreatePromoCodeCommand } from './create-promo-code.command';

/**
 * An admin creates a promo code (docs/adr/0088-promo-codes.md): its stream is named by the code in capitals, so two
 * creations of one code queue on its lock and the second is `error.promo.code.already.exists`.
 */
@CommandHandler(CreatePromoCodeCommand)
export class CreatePromoCodeHandler implements ICommandHandler<CreatePromoCodeCommand, PromoCodeView> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly promoCodes: PromoCodes,
  ) {}

  async execute({ request, context }: CreatePromoCodeCommand): Promise<PromoCodeView> {
    const code = this.promoCodes.normalize(request.code);
    const amount = request.amount === undefined ? null : parseAmountToMinor(request.amount);
    const terms = {
      discountKind: request.discountKind,
      percent: request.percent ?? null,
      amountMinor: amount?.ok ? amount.amountMinor : null,
      appliesTo: request.appliesTo,
      planIds: request.planIds?.map((id) => id.toLowerCase()) ?? null,
      validFrom: request.validFrom === undefined ? null : new Date(request.validFrom).toISOString(),
      validUntil: request.validUntil === undefined ? null : new Date(request.validUntil).toISOString(),
      maxUses: request.maxUses ?? null,
      maxUsesPerClient: request.maxUsesPerClient ?? null,
      newClientsOnly: request.newClientsOnly ?? false,
    };
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { promo: promoCodeStreams.ref(code) },
      decide: ({ promo }, { at }) => ({
        events: { promo: createPromoCode({ code, terms, at }, promo.state) },
        result: null,
      }),
    });
    const created = await this.promoCodes.find(code);
    assert(created !== null, 'a code just created is in the read model');
    return created;
  }
}
