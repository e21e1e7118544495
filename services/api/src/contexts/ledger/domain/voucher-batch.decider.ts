import {
  LIMITS,
  type LedgerAccount,
  userAccount,
  VOUCHER_LIMITS,
  VOUCHER_EVENT_TYPES,
  type VoucherEvent,
  type VoucherEventType,
  type VoucherFunding,
  type VoucherKind,
  type WalletEvent,
} from '@kupa/proto';
import { assert, DomainError, type Evolution } from '../../../kernel';
import { singlePosting } from './postings';
import { SUBSCRIPTION_REVENUE_ACCOUNT } from './wallet.decider';

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
  kind: VoucherKind;
  count: number;
  /** Each MONEY code's worth; 0 for DAYS. */
  amountMinor: number;
  /** DAYS: what each code adds, of which package. */
  days: number | null;
  planId: string | null;
  planName: string | null;
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
          kind: event.data.kind ?? 'MONEY',
          count: event.data.count,
          amountMinor: event.data.amountMinor,
          days: event.data.days ?? null,
          planId: event.data.planId ?? null,
          planName: event.data.planName ?? null,
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

/**
 * What a batch owes its holders in money: each unredeemed code of a funded MONEY batch; nothing before the batch is
 * funded. A DAYS batch owes service, never money (its codes cannot reach a balance).
 */
export function outstandingMinor(state: VoucherBatchState): number {
  if (state.funding === null || state.kind === 'DAYS') return 0;
  return (state.count - state.redeemed.size) * state.amountMinor;
}

function existing(state: VoucherBatchState | null): VoucherBatchState {
  if (state === null) throw new DomainError('error.voucher.batch.not.found');
  return state;
}

/** Generating names how many codes and what each is worth; the codes themselves never enter an event. */
export function generateVoucherBatch(
  command: {
    batchId: string;
    label: string;
    count: number;
    amountMinor: number;
    /** A DAYS batch: each code adds `days` of the package; `amountMinor` is then 0. */
    daysOf?: { days: number; planId: string; planName: string };
    at: Date;
  },
  state: VoucherBatchState | null,
): VoucherEvent[] {
  assert(state === null, `batch ${command.batchId} is generated once`);
  assert(
    Number.isSafeInteger(command.count) && command.count >= 1 && command.count <= VOUCHER_LIMITS.codesPerBatchMax,
    `a batch holds 1 to ${VOUCHER_LIMITS.codesPerBatchMax} codes`,
  );
  if (command.daysOf) {
    const { days, planId, planName } = command.daysOf;
    assert(command.amountMinor === 0, 'a day voucher is worth no money');
    assert(
      Number.isSafeInteger(days) && days >= 1 && days <= LIMITS.extensionMaxDays,
      `a day voucher adds 1 to ${LIMITS.extensionMaxDays} days`,
    );
    const { batchId, label, count } = command;
    return [
      {
        type: 'VoucherBatchGenerated',
        data: {
          batchId,
          label,
          count,
          amountMinor: 0,
          generatedAt: command.at.toISOString(),
          kind: 'DAYS',
          days,
          planId,
          planName,
        },
      },
    ];
  }
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
  command: {
    funding: VoucherFunding;
    comment: string;
    /** DAYS sold: the money received for the whole batch. Absent otherwise. */
    receivedMinor?: number | null;
    transactionId: string;
    at: Date;
  },
  state: VoucherBatchState | null,
): VoucherEvent[] {
  const batch = existing(state);
  if (batch.funding !== null) throw new DomainError('error.voucher.batch.already.funded');
  if (batch.kind === 'DAYS') return fundDayVoucherBatch(command, batch);
  if (command.receivedMinor != null) throw new DomainError('error.voucher.funding.amount.invalid');
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

/**
 * A DAYS batch sold books what was received as subscription revenue at the sale (`world:manual` →
 * `revenue:subscriptions`): the days are service paid in advance. Given away, no money moves and the event with its
 * comment is what explains the days given.
 */
function fundDayVoucherBatch(
  command: { funding: VoucherFunding; comment: string; receivedMinor?: number | null; transactionId: string; at: Date },
  batch: VoucherBatchState,
): VoucherEvent[] {
  const received = command.receivedMinor ?? null;
  const sold = command.funding === 'SOLD';
  const validAmount =
    received !== null && Number.isSafeInteger(received) && received > 0 && received <= LIMITS.amountMaxMinor;
  if (sold ? !validAmount : received !== null) throw new DomainError('error.voucher.funding.amount.invalid');
  const data = {
    batchId: batch.batchId,
    amountMinor: sold ? (received as number) : 0,
    comment: command.comment,
    fundedAt: command.at.toISOString(),
    transaction: sold
      ? singlePosting(command.transactionId, VOUCHER_SALE_ACCOUNT, SUBSCRIPTION_REVENUE_ACCOUNT, received as number)
      : null,
  };
  return [sold ? { type: 'VoucherBatchSold', data } : { type: 'VoucherBatchGivenAway', data }];
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
  const batch = usableCode(command.codeIndex, state);
  assert(batch.kind === 'MONEY', `batch ${batch.batchId} gives days, not money`);
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

/** A DAYS code that may be redeemed now, asked before a refusal that would hide that it is used or unfunded. */
export function redeemableDayCode(codeIndex: number, state: VoucherBatchState | null): VoucherBatchState {
  const batch = usableCode(codeIndex, state);
  assert(batch.kind === 'DAYS', `batch ${batch.batchId} gives money, not days`);
  return batch;
}

/** The batch of a code that may be redeemed now: generated, funded, the code its own and not used. */
export function usableCode(codeIndex: number, state: VoucherBatchState | null): VoucherBatchState {
  const batch = existing(state);
  assert(
    Number.isInteger(codeIndex) && codeIndex >= 0 && codeIndex < batch.count,
    `code ${codeIndex} belongs to batch ${batch.batchId}`,
  );
  if (batch.redeemed.has(codeIndex)) throw new DomainError('error.voucher.code.already.redeemed');
  if (batch.funding === null) throw new DomainError('error.voucher.batch.not.funded');
  return batch;
}

/** The key of a day voucher's extension: one code adds its days once, however often the redemption is retried. */
export function dayVoucherExtensionKey(batchId: string, codeIndex: number): string {
  return `voucher:${batchId}:${codeIndex}`;
}

/** The code an extension's key names (`dayVoucherExtensionKey`), or null for a key of something else. */
export function dayVoucherCodeOfExtensionKey(key: string): { batchId: string; codeIndex: number } | null {
  const match = /^voucher:([0-9a-f-]{36}):(\d+)$/.exec(key);
  return match ? { batchId: match[1], codeIndex: Number(match[2]) } : null;
}

/**
 * A client redeems one code of a DAYS batch on the subscription the flow extends in the same append (its
 * `SubscriptionExtended` is decided by the subscriptions context): the batch records the code used; no money moves.
 */
export function redeemDayVoucher(
  command: { codeIndex: number; userUuid: string; subscriptionId: string; at: Date },
  state: VoucherBatchState | null,
): VoucherEvent[] {
  const batch = usableCode(command.codeIndex, state);
  assert(batch.kind === 'DAYS' && batch.days !== null, `batch ${batch.batchId} gives money, not days`);
  const { codeIndex, userUuid, subscriptionId } = command;
  return [
    {
      type: 'VoucherCodeRedeemed',
      data: {
        batchId: batch.batchId,
        codeIndex,
        userUuid,
        paymentId: null,
        amountMinor: 0,
        redeemedAt: command.at.toISOString(),
        subscriptionId,
        days: batch.days,
      },
    },
  ];
}
