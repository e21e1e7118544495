import type { LedgerTransaction } from './ledger-events';
import type { IsoDateTime } from './payloads';

/*
 * Prepaid vouchers (docs/adr/0089-prepaid-vouchers.md): staff generate a batch of one-time codes worth an amount each,
 * record the batch as sold (money received by hand) or given away (the house pays), and each code credits one client's
 * balance once, ever. Until a code is redeemed its money is a liability, `liability:vouchers`, so the ledger shows at
 * any instant what was sold, what was redeemed and what is still owed.
 */

/** Events of a batch's own stream, `voucher-batch-{uuid}`. A redemption's money is the wallet's `VoucherRedeemed`. */
export const VOUCHER_EVENT_TYPES = Object.freeze({
  batchGenerated: 'VoucherBatchGenerated',
  batchSold: 'VoucherBatchSold',
  batchGivenAway: 'VoucherBatchGivenAway',
  codeRedeemed: 'VoucherCodeRedeemed',
} as const);

export type VoucherEventType = (typeof VOUCHER_EVENT_TYPES)[keyof typeof VOUCHER_EVENT_TYPES];

export const VOUCHER_BATCH_STREAM_PREFIX = 'voucher-batch-';

export function voucherBatchStreamId(batchId: string): string {
  return `${VOUCHER_BATCH_STREAM_PREFIX}${batchId}`;
}

/** How a batch's money came into the liability: paid by a buyer, or given away at the house's cost. */
export const VOUCHER_FUNDINGS = Object.freeze(['SOLD', 'GIVEN_AWAY'] as const);
export type VoucherFunding = (typeof VOUCHER_FUNDINGS)[number];

/**
 * What a batch's codes give: MONEY credits the balance; DAYS adds `days` to the client's subscription of one package
 * (a batch generated before kinds existed has none and is MONEY).
 */
export const VOUCHER_KINDS = Object.freeze(['MONEY', 'DAYS'] as const);
export type VoucherKind = (typeof VOUCHER_KINDS)[number];

export const VOUCHER_LIMITS = Object.freeze({
  /** Codes in one batch: a CSV a person can hand out, and a batch stream that folds fast. */
  codesPerBatchMax: 1000,
  labelMaxLength: 100,
  commentMaxLength: 500,
});

/**
 * A code is 16 characters of Crockford's base32 (80 random bits), shown in groups of four. Guessing one is hopeless
 * even before the rate limit; the alphabet leaves out I, L, O and U, which people misread.
 */
export const VOUCHER_CODE_LENGTH = 16;
export const VOUCHER_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const NORMALIZED_CODE = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/**
 * The code as typed, read the way Crockford's base32 reads it: case, spaces and dashes do not matter, O is 0 and I
 * or L are 1. Null when what remains cannot be a code.
 */
export function normalizeVoucherCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return NORMALIZED_CODE.test(code) ? code : null;
}

/** `ABCD-EFGH-JKMN-PQRS`: how a code is printed and exported. */
export function formatVoucherCode(normalized: string): string {
  return normalized.match(/.{1,4}/g)?.join('-') ?? normalized;
}

/**
 * A batch came into being: `count` codes worth `amountMinor` each, or (DAYS) `days` of the package `planId` each with
 * `amountMinor` 0. Its codes are stored hashed, never in events.
 */
export interface VoucherBatchGeneratedData {
  batchId: string;
  label: string;
  count: number;
  amountMinor: number;
  generatedAt: IsoDateTime;
  /** Absent on batches generated before day vouchers: MONEY. */
  kind?: VoucherKind;
  days?: number;
  planId?: string;
  planName?: string;
}

/**
 * The batch's money came in: sold (`world:manual` → `liability:vouchers`) or given away (`expense:promo` →
 * `liability:vouchers`), the whole batch at once (`count × amountMinor`). Its codes redeem from then on.
 */
export interface VoucherBatchFundedData {
  batchId: string;
  amountMinor: number;
  comment: string;
  fundedAt: IsoDateTime;
  /**
   * MONEY: into `liability:vouchers`. DAYS sold: the amount received, `world:manual` → `revenue:subscriptions`. DAYS
   * given away: null, no money moves; the event is what explains the days given.
   */
  transaction: LedgerTransaction | null;
}

/** One code of the batch was redeemed by a client: on the batch's stream, so that a code redeems once, ever. */
export interface VoucherCodeRedeemedData {
  batchId: string;
  codeIndex: number;
  userUuid: string;
  /** The DEPOSIT that credited a MONEY code; null for a DAYS code, which moves no money. */
  paymentId: number | null;
  amountMinor: number;
  redeemedAt: IsoDateTime;
  /** DAYS: the subscription extended in the same append (its `SubscriptionExtended`, key `voucher:{batchId}:{codeIndex}`). */
  subscriptionId?: string;
  days?: number;
}

export interface VoucherEventDataByType {
  VoucherBatchGenerated: VoucherBatchGeneratedData;
  VoucherBatchSold: VoucherBatchFundedData;
  VoucherBatchGivenAway: VoucherBatchFundedData;
  VoucherCodeRedeemed: VoucherCodeRedeemedData;
}

export type VoucherEvent = {
  [Type in VoucherEventType]: { type: Type; data: VoucherEventDataByType[Type] };
}[VoucherEventType];

/** A batch as the console lists it. Money in dollars at the HTTP edge, as everywhere. */
export interface VoucherBatch {
  id: string;
  label: string;
  kind: VoucherKind;
  count: number;
  /** Each MONEY code's worth; 0 for DAYS. */
  amount: number;
  /** DAYS: what each code adds, of which package; null for MONEY. */
  days: number | null;
  planId: string | null;
  planName: string | null;
  /** Null until the batch is recorded sold or given away; its codes redeem only after that. */
  funding: VoucherFunding | null;
  fundedAt: IsoDateTime | null;
  fundingComment: string | null;
  redeemedCount: number;
  /** What the batch still owes its holders: unredeemed codes of a funded batch. */
  outstanding: number;
  createdAt: IsoDateTime;
  createdBy: string | null;
}

/** The answer of a generation: the batch and its codes, formatted. */
export interface GeneratedVoucherBatch {
  batch: VoucherBatch;
  codes: string[];
}

/** The console's list: every batch, and what all of them still owe. */
export interface VoucherBatchList {
  items: VoucherBatch[];
  outstandingTotal: number;
}

/**
 * What a code would give, asked before redeeming it (`POST /vouchers/preview`, ADR 0089): "$20 to your balance", or
 * "30 days of ⟨package⟩, your subscription then ends ⟨date⟩" / "starts a new subscription". Nothing is spent.
 */
export interface VoucherPreview {
  kind: VoucherKind;
  /** MONEY: what the code adds to the balance; 0 for DAYS. */
  amount: number;
  /** DAYS: how many days of which package; null for MONEY. */
  days: number | null;
  planName: string | null;
  /** DAYS: the subscription the days would extend (the one ending last); null when the code starts a new one. */
  subscriptionId: string | null;
  /** DAYS: that subscription's end after the days, were the code redeemed now; null for a new one and for MONEY. */
  endDate: IsoDateTime | null;
  /** DAYS: the client has no subscription of the package to extend, so the code starts one (login and password). */
  newSubscription: boolean;
}

/** What a client sees after redeeming: what the code was worth and the balance now. */
export interface VoucherRedemption {
  kind: VoucherKind;
  /** MONEY: the credit and the balance now; 0 and the balance unchanged for DAYS. */
  amount: number;
  balance: number;
  paymentId: number | null;
  /** DAYS: the days added to which subscription, now ending when. */
  days: number | null;
  planName: string | null;
  subscriptionId: string | null;
  /** Null when the code started a new subscription: its period starts once the streaming service has the account. */
  endDate: IsoDateTime | null;
  /** DAYS: true when the code started a new subscription (the client had none of the package to extend). */
  newSubscription: boolean;
}
