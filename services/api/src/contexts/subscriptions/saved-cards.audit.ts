import type { SavedCardEventDataByType, SavedCardEventType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

function entry<Type extends SavedCardEventType>(
  fields: (data: SavedCardEventDataByType[Type]) => Record<string, unknown>,
): AuditMapper {
  return (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as SavedCardEventDataByType[Type];
    return {
      targetType: 'CLIENT',
      targetId: data.userUuid,
      parent: null,
      operationType: 'UPDATED',
      fields: fields(data),
    };
  };
}

/**
 * How the saved card stream reads in the activity log (docs/adr/0085-saved-cards.md): under the client, the card as a
 * person recognises it (brand, last four digits, expiry), never the provider's ids.
 */
export const SAVED_CARD_AUDIT_MAPPERS: Readonly<Record<SavedCardEventType, AuditMapper>> = Object.freeze({
  CardCustomerCreated: entry<'CardCustomerCreated'>(() => ({})),
  CardSaved: entry<'CardSaved'>((data) => ({
    savedCard: `${data.brand} •••• ${data.last4} ${String(data.expMonth).padStart(2, '0')}/${data.expYear}`,
  })),
  CardRemoved: entry<'CardRemoved'>(() => ({ savedCard: null })),
});
