import {
  LIMITS,
  type LedgerAccount,
  userAccount,
  VOUCHER_LIMITS,
  VOUCHER_EVENT_TYPES,
  type VoucherEvent,
  type VoucherEventType,
  type VoucherFunding,
  type WalletEvent,
} from '@kupa/proto';
import { assert, DomainError, type Evolution } from '../../../kernel';
import { singlePosting } from './postings';

/*
 * A batch of prepaid vouchers (docs/adr/0089-prepaid-vouchers.md). Its stream, `voucher-batch-{uuid}`, holds its
 * generation, its funding and every redemption, so that two clients redeeming one code queue on the batch's lock and
 * the second finds the code taken: a code redeems once, ever.
 */

export type { VoucherEvent } from '@kupa/proto';

/** Every event type of a batch's stream: the projection's, the replay's and the registry's. */
export const ALL_VOUCHER_EVENT_TYPES: readonly VoucherEventType[] = Object.freeze(Object.values(VOUCHER_EVENT_TYPES));

/** The batch events that carry a ledger transaction: the money entering the liability. */
export const VOUCHER_FUNDING_EVENT_TYPES: readonly VoucherEventType[] = Object.freeze([
  'VoucherBatchSold',
  'VoucherBatchGivenAway',
]);

/** Where the money of sold vouchers comes from: paid by hand, like a manual deposit. */
export const VOUCHER_SALE_ACCOUNT: LedgerAccount = 'world:manual';
/** What vouchers given away cost the house. */
export const VOUCHER_PROMO_ACCOUNT: LedgerAccount = 'expense:promo';
/** Money owed to holders of unredeemed codes. */
export const VOUCHER_LIABILITY_ACCOUNT: LedgerAccount = 'liability:vouchers';

export function voucherFundingAccount(funding: VoucherFunding): LedgerAccount {
  return funding === 'SOLD' ? VOUCHER_SALE_ACCOUNT : VOUCHER_PROMO_ACCOUNT;
}

export interface VoucherBatchState {
  batchId: string;
  count: number;
  amountMinor: number;
  funding: VoucherFunding | null;
  /** Indexes (0-based) of the codes already redeemed. */
  redeemed: ReadonlySet<number>;
}

export const voucherBatchEvolution: Evolution<VoucherBatchState | null, VoucherEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'VoucherBatchGenerated':
        return {
          batchId: event.data.batchId,
          count: event.data.count,
          amountMinor: event.data.amountMinor,
          funding: null,
          redeemed: new Set(),
        };
      case 'VoucherBatchSold':
      case 'VoucherBatchGivenAway':
        assert(state !== null, 'a batch is funded after it was generated');
        return { ...state, funding: event.type === 'VoucherBatchSold' ? 'SOLD' : 'GIVEN_AWAY' };
      case 'VoucherCodeRedeemed': {
        assert(state !== null, 'a code is redeemed from a generated batch');
        return { ...state, redeemed: new Set([...state.redeemed, event.data.codeIndex]) };
      }
    }
  },
};

/** What a batch owes its holders: each unredeemed code of a funded batch; nothing before the batch is funded. */
export function outstandingMinor(state: VoucherBatchState): number {
  if (state.funding === null) return 0;
  return (state.count - state.redeemed.size) * state.amountMinor;
}

function existing(state: VoucherBatchState | null): VoucherBatchState {
  if (state === null) throw new DomainError('error.voucher.batch.not.found');
  return state;
}

/** Generating names how many codes and what each is worth; the codes themselves never enter an event. */
export function generateVoucherBatch(
  command: { batchId: string; label: string; count: number; amountMinor: number; at: Date },
  state: VoucherBatchState | null,
): VoucherEvent[] {
  assert(state === null, `batch ${command.batchId} is generated once`);
  assert(
    Number.isSafeInteger(command.count) && command.count >= 1 && command.count <= VOUCHER_LIMITS.codesPerBatchMax,
    `a batch holds 1 to ${VOUCHER_LIMITS.codesPerBatchMax} codes`,
  );
  assert(
    Number.isSafeInteger(command.amountMinor) &&
      command.amountMinor > 0 &&
      command.amountMinor <= LIMITS.amountMaxMinor,
    'a voucher is worth a positive amount within the payment limit',
  );
  const { batchId, label, count, amountMinor } = command;
  return [
    {
      type: 'VoucherBatchGenerated',
      data: { batchId, label, count, amountMinor, generatedAt: command.at.toISOString() },
    },
  ];
}

/**
 * Sold or given away, the whole batch's worth enters the liability at once, by one balanced transaction; a batch is
 * funded once (`error.voucher.batch.already.funded`).
 */
export function fundVoucherBatch(
  command: { funding: VoucherFunding; comment: string; transactionId: string; at: Date },
  state: VoucherBatchState | null,
): VoucherEvent[] {
  const batch = existing(state);
  if (batch.funding !== null) throw new DomainError('error.voucher.batch.already.funded');
  const amountMinor = batch.count * batch.amountMinor;
  const transaction = singlePosting(
    command.transactionId,
    voucherFundingAccount(command.funding),
    VOUCHER_LIABILITY_ACCOUNT,
    amountMinor,
  );
  const data = {
    batchId: batch.batchId,
    amountMinor,
    comment: command.comment,
    fundedAt: command.at.toISOString(),
    transaction,
  };
  return [command.funding === 'SOLD' ? { type: 'VoucherBatchSold', data } : { type: 'VoucherBatchGivenAway', data }];
}

export interface VoucherRedemptionEvents {
  batch: VoucherEvent[];
  wallet: WalletEvent[];
}

/**
 * A client redeems one code: the batch records the code as used and the wallet gets its worth from the liability,
 * decided together so that both are one append. A code of a batch not yet funded does not redeem (its money is not in
 * the liability), and a used code never again.
 */
export function redeemVoucher(
  command: { codeIndex: number; userUuid: string; paymentId: number; transactionId: string; at: Date },
  state: VoucherBatchState | null,
): VoucherRedemptionEvents {
  const batch = existing(state);
  assert(
    Number.isInteger(command.codeIndex) && command.codeIndex >= 0 && command.codeIndex < batch.count,
    `code ${command.codeIndex} belongs to batch ${batch.batchId}`,
  );
  if (batch.redeemed.has(command.codeIndex)) throw new DomainError('error.voucher.code.already.redeemed');
  if (batch.funding === null) throw new DomainError('error.voucher.batch.not.funded');
  const { codeIndex, userUuid, paymentId } = command;
  const { batchId, amountMinor } = batch;
  const transaction = singlePosting(
    command.transactionId,
    VOUCHER_LIABILITY_ACCOUNT,
    userAccount(userUuid),
    amountMinor,
  );
  return {
    batch: [
      {
        type: 'VoucherCodeRedeemed',
        data: { batchId, codeIndex, userUuid, paymentId, amountMinor, redeemedAt: command.at.toISOString() },
      },
    ],
    wallet: [{ type: 'VoucherRedeemed', data: { userUuid, paymentId, batchId, codeIndex, amountMinor, transaction } }],
  };
}
