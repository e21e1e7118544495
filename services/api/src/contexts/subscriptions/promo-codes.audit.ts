import { minorToAmount, type PromoCodeEventDataByType, type PromoCodeEventType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * How promo codes read in the activity log (docs/adr/0088-promo-codes.md): the code is its own target, named by
 * itself; its creation lists its terms, and each use says which payment of which client it discounted and by how
 * much.
 */
export const PROMO_CODE_AUDIT_MAPPERS: Readonly<Record<PromoCodeEventType, AuditMapper>> = Object.freeze({
  PromoCodeCreated: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PromoCodeEventDataByType['PromoCodeCreated'];
    return {
      targetType: 'PROMO_CODE',
      targetId: data.code,
      parent: null,
      operationType: 'CREATED',
      fields: {
        ...(data.percent !== null ? { percentOff: data.percent } : {}),
        ...(data.amountMinor !== null ? { amountOff: minorToAmount(data.amountMinor) } : {}),
        appliesTo: data.appliesTo,
        ...(data.planIds !== null ? { packages: data.planIds } : {}),
        ...(data.validFrom !== null ? { validFrom: data.validFrom } : {}),
        ...(data.validUntil !== null ? { validUntil: data.validUntil } : {}),
        ...(data.maxUses !== null ? { maxUses: data.maxUses } : {}),
        ...(data.maxUsesPerClient !== null ? { maxUsesPerClient: data.maxUsesPerClient } : {}),
        newClientsOnly: data.newClientsOnly,
      },
    };
  },
  PromoCodeDisabled: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PromoCodeEventDataByType['PromoCodeDisabled'];
    return {
      targetType: 'PROMO_CODE',
      targetId: data.code,
      parent: null,
      operationType: 'UPDATED',
      fields: { disabled: true },
    };
  },
  PromoCodeRedeemed: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PromoCodeEventDataByType['PromoCodeRedeemed'];
    return {
      targetType: 'PROMO_CODE',
      targetId: data.code,
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: {
        payment: `#${data.paymentId}`,
        price: minorToAmount(data.priceMinor),
        discount: minorToAmount(data.discountMinor),
      },
    };
  },
  PromoCodeReserved: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PromoCodeEventDataByType['PromoCodeReserved'];
    return {
      targetType: 'PROMO_CODE',
      targetId: data.code,
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: {
        payment: `#${data.depositPaymentId}`,
        price: minorToAmount(data.priceMinor),
        discount: minorToAmount(data.discountMinor),
        heldUntil: data.expiresAt,
      },
    };
  },
  PromoCodeReservationReleased: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as PromoCodeEventDataByType['PromoCodeReservationReleased'];
    return {
      targetType: 'PROMO_CODE',
      targetId: data.code,
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: { payment: `#${data.depositPaymentId}`, released: true },
    };
  },
});
