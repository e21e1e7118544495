import { minorToAmount, type SubscriptionEventDataByType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { SubscriptionEventType } from './domain/subscription.events';

function entry<Type extends SubscriptionEventType>(
  operationType: AuditEntryDraft['operationType'],
  fields: (data: SubscriptionEventDataByType[Type]) => Record<string, unknown>,
): AuditMapper {
  return (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as SubscriptionEventDataByType[Type];
    return {
      targetType: 'SUBSCRIPTION',
      targetId: data.subscriptionId,
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType,
      fields: fields(data),
    };
  };
}

/**
 * How each subscription event reads in the activity log: a SUBSCRIPTION target under its CLIENT, with the values the
 * event sets (the log works out what changed, docs/adr/0007-activity-log.md). No password ever: the events hold none,
 * and a password change shows only its instant.
 */
export const SUBSCRIPTIONS_AUDIT_MAPPERS: Readonly<Record<SubscriptionEventType, AuditMapper>> = Object.freeze({
  SubscriptionPurchased: entry<'SubscriptionPurchased'>('CREATED', (data) => ({
    status: 'PENDING',
    type: data.type,
    planName: data.planName,
    price: minorToAmount(data.priceMinor),
    discountPercent: data.discountPercent,
    isRecurrent: data.isRecurrent,
    login: data.login,
    // A day voucher's subscription (ADR 0089): "+30 days: voucher ⟨label⟩", as an extension by a code reads.
    ...(data.voucher ? { voucher: { days: data.voucher.days, reason: data.voucher.label, source: 'VOUCHER' } } : {}),
  })),
  SubscriptionActivated: entry<'SubscriptionActivated'>('UPDATED', (data) => ({
    status: 'ACTIVE',
    startDate: data.startDate,
    endDate: data.endDate,
  })),
  SubscriptionRenewed: entry<'SubscriptionRenewed'>('UPDATED', (data) => ({
    price: minorToAmount(data.priceMinor),
    discountPercent: data.discountPercent,
    endDate: data.endDate,
    cancelAtPeriodEnd: false,
  })),
  SubscriptionRenewalFailed: entry<'SubscriptionRenewalFailed'>('UPDATED', (data) => ({
    missingAmount: minorToAmount(data.missingMinor),
  })),
  SubscriptionCancelled: entry<'SubscriptionCancelled'>('UPDATED', () => ({ cancelAtPeriodEnd: true })),
  SubscriptionResumed: entry<'SubscriptionResumed'>('UPDATED', () => ({ cancelAtPeriodEnd: false })),
  SubscriptionRecurrenceDeactivated: entry<'SubscriptionRecurrenceDeactivated'>('UPDATED', () => ({
    isRecurrent: false,
  })),
  SubscriptionEnded: entry<'SubscriptionEnded'>('UPDATED', (data) => ({ status: data.status })),
  SubscriptionLoginChanged: entry<'SubscriptionLoginChanged'>('UPDATED', (data) => ({ login: data.login })),
  SubscriptionPasswordChanged: entry<'SubscriptionPasswordChanged'>('UPDATED', (data) => ({
    passwordChangedAt: data.changedAt,
  })),
  SubscriptionProvisioningFailed: entry<'SubscriptionProvisioningFailed'>('UPDATED', (data) => ({
    status: 'CANCELED',
    failureReason: data.reason,
  })),
  SubscriptionLapsed: entry<'SubscriptionLapsed'>('UPDATED', (data) => ({
    status: 'GRACE',
    graceEndsAt: data.graceEndsAt,
  })),
  SubscriptionRenewalFundingChanged: entry<'SubscriptionRenewalFundingChanged'>('UPDATED', (data) => ({
    renewalFunding: data.funding,
  })),
  SubscriptionCardRenewalStarted: entry<'SubscriptionCardRenewalStarted'>('UPDATED', (data) => ({
    cardChargeAmount: minorToAmount(data.amountMinor),
    cardChargeSettled: false,
  })),
  SubscriptionCardRenewalPending: entry<'SubscriptionCardRenewalPending'>('UPDATED', () => ({
    cardChargeSettled: false,
  })),
  SubscriptionCardRenewalFailed: entry<'SubscriptionCardRenewalFailed'>('UPDATED', (data) => ({
    cardChargeFailure: data.outcome,
  })),
  SubscriptionCardRenewalSettled: entry<'SubscriptionCardRenewalSettled'>('UPDATED', () => ({
    cardChargeSettled: true,
  })),
  // The new end date inside `extension` too: two extensions alike still differ, so each entry keeps its sentence.
  SubscriptionExtended: entry<'SubscriptionExtended'>('UPDATED', (data) => ({
    endDate: data.endDate,
    extension: { days: data.days, reason: data.reason, source: data.source, endDate: data.endDate },
  })),
});
