import { parsePlanPriceToMinor, type PlanStatus } from '@kupa/proto';
import { assert } from '../../../kernel';
import type { PaymentPlanTerms } from '../domain/plan.events';
import type { PlanRequestDto } from './plan-request.dto';

/** A validated request's terms as the decider takes them: the price in cents. */
export function planTermsOf(request: PlanRequestDto): { terms: PaymentPlanTerms; status: PlanStatus } {
  const price = parsePlanPriceToMinor(request.price);
  assert(price.ok, 'the DTO accepted only valid prices');
  return {
    terms: {
      name: request.name,
      durationInMonths: request.durationInMonths,
      priceMinor: price.amountMinor,
      currency: request.currency,
      isRecurrent: request.isRecurrent,
      description: request.description,
      features: request.features,
      // Absent means allowed: a package is for sale by card unless staff say otherwise.
      cardPaymentAllowed: request.cardPaymentAllowed ?? true,
      // Absent means none: readers of either language then see the Hebrew texts.
      nameEn: request.nameEn ?? '',
      descriptionEn: request.descriptionEn ?? '',
    },
    status: request.status,
  };
}
