import {
  DEPOSIT_CLAIM_EVENT_TYPES,
  DEPOSIT_CLAIM_LIMITS,
  type DepositClaimEvent,
  type DepositClaimEventType,
  type DepositClaimStatus,
  minorToAmount,
} from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';

/*
 * A client's manual-transfer claims (docs/adr/0112-manual-transfer-claims.md), all on one stream per client,
 * `deposit-claims-{userUuid}`, so that "at most N open" is decided under that stream's lock. A claim moves no money:
 * it is settled by the manual deposit staff record for it, in that deposit's append, or rejected with a reason.
 */

export const ALL_DEPOSIT_CLAIM_EVENT_TYPES: readonly DepositClaimEventType[] = Object.freeze(
  Object.values(DEPOSIT_CLAIM_EVENT_TYPES),
);

export interface ClaimState {
  status: DepositClaimStatus;
  amountMinor: number;
}

export interface DepositClaimsState {
  claims: ReadonlyMap<string, ClaimState>;
}

function evolveDepositClaims(state: DepositClaimsState, event: DepositClaimEvent): DepositClaimsState {
  const claims = new Map(state.claims);
  switch (event.type) {
    case 'ManualTransferClaimed':
      claims.set(event.data.claimId, { status: 'OPEN', amountMinor: event.data.amountMinor });
      break;
    case 'ManualTransferClaimSettled':
    case 'ManualTransferClaimRejected': {
      const claim = claims.get(event.data.claimId);
      if (claim)
        claims.set(event.data.claimId, {
          ...claim,
          status: event.type === 'ManualTransferClaimSettled' ? 'SETTLED' : 'REJECTED',
        });
      break;
    }
  }
  return { claims };
}

export const depositClaimsEvolution: Evolution<DepositClaimsState, DepositClaimEvent> = {
  initialState: () => ({ claims: new Map() }),
  evolve: evolveDepositClaims,
};

export function openClaimCount(state: DepositClaimsState): number {
  return [...state.claims.values()].filter((claim) => claim.status === 'OPEN').length;
}

export interface ClaimManualTransfer {
  claimId: string;
  userUuid: string;
  amountMinor: number;
  /** The client's profile ID: the reference they were told to write on the transfer. */
  reference: string;
  note: string | null;
  /** The deposit limits every top-up keeps to (`CASHIER_DEPOSIT_MIN`…`MAX`). */
  depositMinMinor: number;
  depositMaxMinor: number;
  at: Date;
}

/**
 * A client says they sent money: the amount within the deposit limits, and at most
 * `DEPOSIT_CLAIM_LIMITS.openPerClientMax` claims waiting at once, so a client cannot flood the staff chat.
 */
export function claimManualTransfer(command: ClaimManualTransfer, state: DepositClaimsState): DepositClaimEvent[] {
  const { amountMinor, depositMinMinor, depositMaxMinor } = command;
  if (!Number.isSafeInteger(amountMinor) || amountMinor < depositMinMinor || amountMinor > depositMaxMinor)
    throw new DomainError('error.deposit.amount.out.of.range', {
      minAmount: minorToAmount(depositMinMinor),
      maxAmount: minorToAmount(depositMaxMinor),
    });
  if (openClaimCount(state) >= DEPOSIT_CLAIM_LIMITS.openPerClientMax)
    throw new DomainError('error.deposit.claim.too.many.open', { max: DEPOSIT_CLAIM_LIMITS.openPerClientMax });
  return [
    {
      type: 'ManualTransferClaimed',
      data: {
        claimId: command.claimId,
        userUuid: command.userUuid,
        amountMinor,
        currency: 'USD',
        reference: command.reference,
        note: command.note,
        claimedAt: command.at.toISOString(),
      },
    },
  ];
}

/** The open claim, or the refusal: unknown on this client's stream is 404, closed is 409 (it cannot change again). */
export function openClaim(state: DepositClaimsState, claimId: string): ClaimState {
  const claim = state.claims.get(claimId);
  if (!claim) throw new DomainError('error.deposit.claim.not.found');
  if (claim.status !== 'OPEN') throw new DomainError('error.deposit.claim.closed');
  return claim;
}

/** Staff recorded the manual deposit `paymentId` for the claim, in the same append. */
export function settleClaim(
  command: { claimId: string; userUuid: string; paymentId: number; at: Date },
  state: DepositClaimsState,
): DepositClaimEvent[] {
  openClaim(state, command.claimId);
  return [
    {
      type: 'ManualTransferClaimSettled',
      data: {
        claimId: command.claimId,
        userUuid: command.userUuid,
        paymentId: command.paymentId,
        settledAt: command.at.toISOString(),
      },
    },
  ];
}

/** Staff found no such transfer: the claim closes with their reason, which the client is told. */
export function rejectClaim(
  command: { claimId: string; userUuid: string; reasonText: string; at: Date },
  state: DepositClaimsState,
): DepositClaimEvent[] {
  openClaim(state, command.claimId);
  return [
    {
      type: 'ManualTransferClaimRejected',
      data: {
        claimId: command.claimId,
        userUuid: command.userUuid,
        reasonText: command.reasonText,
        rejectedAt: command.at.toISOString(),
      },
    },
  ];
}
