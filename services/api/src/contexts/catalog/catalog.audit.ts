import { minorToAmount, type PaymentPlanEventDataByType, type PaymentPlanTerms } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper, AuditName } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { PaymentPlanEventType } from './domain/plan.events';
import type { PlanReader } from './projections/payment-plans/plan-reader';

/**
 * Names the packages behind a page of activity-log ids by their current names, in one read. A deleted package has no
 * name any more and is shown by its id.
 */
export async function auditNamesOf(plans: PlanReader, ids: readonly string[]): Promise<Map<string, AuditName>> {
  const names = await plans.namesOf(ids);
  return new Map([...names].map(([planId, name]) => [planId, { name, email: null }]));
}

/** A package's terms as staff read them in the log: the price in dollars, as everywhere outside the ledger. */
function termFields(terms: PaymentPlanTerms): Record<string, unknown> {
  return {
    name: terms.name,
    durationInMonths: terms.durationInMonths,
    price: minorToAmount(terms.priceMinor),
    currency: terms.currency,
    isRecurrent: terms.isRecurrent,
    description: terms.description,
    features: terms.features,
    cardPaymentAllowed: terms.cardPaymentAllowed,
    // An empty English text is no English text: null, which the log keeps out of a package's known values. So a
    // package stored before English texts existed (upcast with empty ones) replays to the entries it had then, and
    // clearing an English name reads as a change to nothing.
    nameEn: terms.nameEn || null,
    descriptionEn: terms.descriptionEn || null,
  };
}

function entry<Type extends PaymentPlanEventType>(
  operationType: AuditEntryDraft['operationType'],
  fields: (data: PaymentPlanEventDataByType[Type]) => Record<string, unknown>,
): AuditMapper {
  return (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PaymentPlanEventDataByType[Type];
    return { targetType: 'PACKAGE', targetId: data.planId, parent: null, operationType, fields: fields(data) };
  };
}

/**
 * How each catalog event reads in the activity log: a PACKAGE target with the values the event sets; the log works
 * out what changed (docs/adr/0007-activity-log.md). A deletion lists nothing: the log ends every known value.
 */
export const CATALOG_AUDIT_MAPPERS: Readonly<Record<PaymentPlanEventType, AuditMapper>> = Object.freeze({
  PaymentPlanCreated: entry<'PaymentPlanCreated'>('CREATED', (data) => ({ ...termFields(data), status: data.status })),
  PaymentPlanUpdated: entry<'PaymentPlanUpdated'>('UPDATED', termFields),
  PaymentPlanStatusChanged: entry<'PaymentPlanStatusChanged'>('UPDATED', (data) => ({ status: data.status })),
  PaymentPlanDeleted: entry<'PaymentPlanDeleted'>('DELETED', () => ({})),
});
