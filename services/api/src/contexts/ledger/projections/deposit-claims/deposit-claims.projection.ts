import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { ALL_DEPOSIT_CLAIM_EVENT_TYPES } from '../../domain/deposit-claims.decider';
import type { DepositClaimEvent } from '@kupa/proto';

/** Keeps `deposit_claims` (what the client and staff list) in step with the claim streams, in the append's transaction. */
export class DepositClaimsProjection implements InlineProjection {
  readonly name = 'deposit-claims';
  readonly handles = ALL_DEPOSIT_CLAIM_EVENT_TYPES;
  readonly tables = ['deposit_claims'];
  readonly replayChecked = [{ table: 'deposit_claims', key: ['claim_id'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as DepositClaimEvent;
      switch (event.type) {
        case 'ManualTransferClaimed': {
          const { claimId, userUuid, amountMinor, currency, reference, note, claimedAt } = event.data;
          await manager.query(
            `INSERT INTO deposit_claims (claim_id, user_uuid, amount_minor, currency, reference, note, status, claimed_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7)`,
            [claimId, userUuid, amountMinor, currency, reference, note, claimedAt],
          );
          break;
        }
        case 'ManualTransferClaimSettled':
          await manager.query(
            `UPDATE deposit_claims SET status = 'SETTLED', payment_id = $2, closed_at = $3 WHERE claim_id = $1`,
            [event.data.claimId, event.data.paymentId, event.data.settledAt],
          );
          break;
        case 'ManualTransferClaimRejected':
          await manager.query(
            `UPDATE deposit_claims SET status = 'REJECTED', reason_text = $2, closed_at = $3 WHERE claim_id = $1`,
            [event.data.claimId, event.data.reasonText, event.data.rejectedAt],
          );
          break;
      }
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE deposit_claims');
  }
}
