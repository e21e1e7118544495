import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DepositClaim, minorToAmount } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import { fullNameOf, UserReader } from '../../../identity';
import { type StaffAlert, StaffAlerts } from '../../../notifications';
import { claimManualTransfer } from '../../domain/deposit-claims.decider';
import { depositClaimStreams } from '../../infrastructure/ledger-streams';
import { ClaimManualTransferCommand } from './claim-manual-transfer.command';

export const CLAIM_MANUAL_TRANSFER_ROUTE = 'POST /deposit-claims';

/** How much of the client's note a staff alert repeats: enough to find the transfer, short on a phone. */
export const CLAIM_ALERT_NOTE_MAX_CHARS = 120;

/**
 * Records the claim on the client's claims stream and, in the same transaction, the staff alert
 * `staff-manual-transfer-claim` (ADR 0106's `StaffAlerts`), so a claim is announced once or not at all. No money
 * moves: staff settle it by recording the manual deposit for it.
 */
@CommandHandler(ClaimManualTransferCommand)
export class ClaimManualTransferHandler implements ICommandHandler<ClaimManualTransferCommand, DepositClaim> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly users: UserReader,
    private readonly staffAlerts: StaffAlerts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({
    actor,
    amountMinor,
    note,
    idempotencyKey,
    context,
  }: ClaimManualTransferCommand): Promise<DepositClaim> {
    const idempotency = this.keys.request(actor.userUuid, idempotencyKey, CLAIM_MANUAL_TRANSFER_ROUTE, {
      amountMinor,
      note,
    });
    const known = await this.keys.replayIfKnown<DepositClaim>(idempotency);
    if (known) return known;
    const user = await this.users.findByUuid(actor.userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    const claimId = randomUUID();
    const alertOf = (at: Date): StaffAlert => ({
      key: `manual-transfer-claim:${claimId}`,
      kind: 'staff-manual-transfer-claim',
      params: {
        amountMinor,
        clientName: fullNameOf(user) || null,
        clientProfileId: user.profileId,
        note: note === null ? null : trimmedNote(note),
        claimedAt: at.toISOString(),
        link: '/admin/deposit-claims',
      },
    });
    return this.commands.run(idempotency, {
      context,
      streams: { claims: depositClaimStreams.ref(user.uuid) },
      decide: (loaded, { at }) => {
        const events = claimManualTransfer(
          {
            claimId,
            userUuid: user.uuid,
            amountMinor,
            reference: user.profileId,
            note,
            depositMinMinor: this.config.cashierDepositMinMinor,
            depositMaxMinor: this.config.cashierDepositMaxMinor,
            at,
          },
          loaded.claims.state,
        );
        const result: DepositClaim = {
          claimId,
          userUuid: user.uuid,
          amount: minorToAmount(amountMinor),
          currency: 'USD',
          reference: user.profileId,
          note,
          status: 'OPEN',
          paymentId: null,
          reasonText: null,
          claimedAt: at.toISOString(),
          closedAt: null,
        };
        return { events: { claims: events }, result };
      },
      alongside: async (tx, _decision, { at }) => {
        await this.staffAlerts.record(tx.manager, [alertOf(at)], at);
      },
    });
  }
}

function trimmedNote(note: string): string {
  const flat = note.replace(/\s+/g, ' ').trim();
  return flat.length <= CLAIM_ALERT_NOTE_MAX_CHARS ? flat : `${flat.slice(0, CLAIM_ALERT_NOTE_MAX_CHARS - 1)}…`;
}
