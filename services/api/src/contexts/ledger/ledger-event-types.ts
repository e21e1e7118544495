import type { EventTypeRegistry } from '../../platform/event-store/event-type-registry';
import { LEDGER_EVENT_SCHEMAS } from './domain/ledger-event-schemas';
import { ALL_LEDGER_EVENT_TYPES } from './domain/ledger.events';
import { ALL_VOUCHER_EVENT_TYPES } from './domain/voucher-batch.decider';

/** Declares the ledger's event types with their schema versions and upcasters: the module's and verify's registry. */
export function registerLedgerEventTypes(eventTypes: EventTypeRegistry): void {
  for (const type of ALL_LEDGER_EVENT_TYPES) eventTypes.register(type, LEDGER_EVENT_SCHEMAS[type]);
  for (const type of ALL_VOUCHER_EVENT_TYPES) eventTypes.register(type);
}
