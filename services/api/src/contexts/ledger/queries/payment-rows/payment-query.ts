import {
  type CardProvider,
  type CardProviderStatus,
  type CashierProvider,
  type CashierProviderStatus,
  type DepositPurchase,
  type DepositPurchaseKind,
  type DepositPurchaseStatus,
  type ErrorCode,
  isPaymentNumberKeyword,
  isStaffRole,
  LIMITS,
  type Payment,
  type PaymentAggregator,
  type PaymentCard,
  type PaymentCashier,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
  type PaidSubscription,
  type PaymentPromoCode,
  minorToAmount,
  normalizeEmail,
  normalizePromoCode,
  PATTERNS,
  paymentKeywordTooShort,
  type StaffPayment,
  type UserRole,
} from '@kupa/proto';
import { assert } from '../../../../kernel';
import { orderByFromSorts, type SortColumnSql, ValidationFailedError } from '../../../../platform/http';
import type { PaymentFilters } from './payment-filters.request.dto';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import type { DepositPurchaseDetails } from './deposit-purchase-details.port';
import type { SubscriptionPaymentDetails } from './subscription-payment-details.port';

/** The SQL of each column proto's `SORTABLE_COLUMNS.payments` lists (nothing else reaches ORDER BY). */
const SORT_COLUMNS: SortColumnSql<'payments'> = Object.freeze({
  createdAt: 'p.created_at',
  amount: 'p.amount_minor',
  status: 'p.status',
  type: 'p.type',
  method: 'p.method',
  aggregator: 'p.aggregator',
  paymentId: 'p.payment_id',
  userEmail: 'p.user_email',
});

/** Newest first; the payment id breaks ties so that paging never shows a row twice or skips one. */
const DEFAULT_ORDER = 'p.created_at DESC, p.payment_id DESC';

/** A date without a time part (`2026-05-03`): as the upper bound it means "to the end of that day". */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The columns a `Payment` is made from; money and ids leave PostgreSQL as text, never as lossy numbers. */
export const PAYMENT_COLUMNS = `p.payment_id::text AS payment_id, p.user_uuid, p.user_email, p.amount_minor::text AS amount_minor,
  p.currency, p.status, p.method, p.type, p.aggregator, p.comment, p.public_note, p.sender_profile_id,
  p.recipient_profile_id, p.transfer_id, p.created_at, p.created_by, p.created_by_public, p.updated_at, p.updated_by,
  p.updated_by_public, p.bonus_payment_id::text AS bonus_payment_id, p.bonus_for_payment_id::text AS bonus_for_payment_id,
  p.cashier_provider, p.cashier_invoice_id, p.cashier_invoice_url, p.cashier_pay_currency,
  p.provider_payment_id, p.provider_status, p.amount_asked_minor::text AS amount_asked_minor,
  p.amount_received_minor::text AS amount_received_minor,
  p.discount_percent, dp.kind AS purchase_kind, dp.payment_plan_id AS purchase_plan_id,
  dp.plan_name AS purchase_plan_name, dp.subscription_id AS purchase_subscription_id, dp.status AS purchase_status,
  dp.error_code AS purchase_error_code, p.card_provider, p.card_checkout_session_id, p.review_currency,
  p.review_amount_minor::text AS review_amount_minor, sp.subscription_id AS paid_subscription_id,
  sp.plan_name AS paid_plan_name, sp.promo_code, sp.promo_discount_minor::text AS promo_discount_minor,
  p.refunded_by_payment_id::text AS refunded_by_payment_id`;

/**
 * The relation `PAYMENT_COLUMNS` read from: the payments, with what a deposit buys and what a balance payment paid
 * for, each from its owner's relation.
 */
export function paymentsWithPurchases(
  purchases: DepositPurchaseDetails,
  subscriptionPayments: SubscriptionPaymentDetails,
  paymentsRelation = 'payments p',
): string {
  return `${paymentsRelation} LEFT JOIN ${purchases.relation} dp ON dp.payment_id = p.payment_id
    LEFT JOIN ${subscriptionPayments.relation} sp ON sp.payment_id = p.payment_id`;
}

/**
 * Who reads a payment decides what it says (docs/product.md, Ledger, What a client sees): staff read the internal
 * comment and the authors' e-mails; the payment's owner reads neither, only the public note and the authors as
 * `customerAuthorLabel` tells them.
 */
export type PaymentAudience = 'staff' | 'customer';

export function paymentAudienceOf(role: UserRole): PaymentAudience {
  return isStaffRole(role) ? 'staff' : 'customer';
}

export interface PaymentRow {
  payment_id: string;
  user_uuid: string;
  user_email: string;
  amount_minor: string;
  currency: 'USD';
  status: PaymentStatus;
  method: PaymentMethod;
  type: PaymentType;
  aggregator: PaymentAggregator;
  comment: string | null;
  public_note: string | null;
  sender_profile_id: string | null;
  recipient_profile_id: string | null;
  transfer_id: string | null;
  created_at: Date;
  created_by: string;
  created_by_public: string;
  updated_at: Date;
  updated_by: string;
  updated_by_public: string;
  bonus_payment_id: string | null;
  bonus_for_payment_id: string | null;
  cashier_provider: CashierProvider | null;
  cashier_invoice_id: string | null;
  cashier_invoice_url: string | null;
  cashier_pay_currency: string | null;
  provider_payment_id: string | null;
  /** The cashier's status on a crypto deposit, the card provider's on a card deposit. */
  provider_status: CashierProviderStatus | CardProviderStatus | null;
  amount_asked_minor: string | null;
  amount_received_minor: string | null;
  discount_percent: number;
  purchase_kind: DepositPurchaseKind | null;
  purchase_plan_id: string | null;
  purchase_plan_name: string | null;
  purchase_subscription_id: string | null;
  purchase_status: DepositPurchaseStatus | null;
  purchase_error_code: ErrorCode | null;
  card_provider: CardProvider | null;
  card_checkout_session_id: string | null;
  review_currency: string | null;
  review_amount_minor: string | null;
  paid_subscription_id: string | null;
  paid_plan_name: string | null;
  promo_code: string | null;
  promo_discount_minor: string | null;
  refunded_by_payment_id: string | null;
}

/**
 * The subscription a balance payment paid for or a refund gave back. Every other payment leaves the field out, so
 * that its answer is what it was before the field existed (docs/adr/0077-details-people-can-read.md).
 */
function paidForOf(row: PaymentRow): { paidFor?: PaidSubscription } {
  return row.paid_subscription_id === null
    ? {}
    : { paidFor: { subscriptionId: row.paid_subscription_id, planName: row.paid_plan_name } };
}

/** The promo code a payment used, with its discount; left out, like `paidFor`, on every other payment. */
function promoCodeOf(row: PaymentRow): { promoCode?: PaymentPromoCode } {
  return row.promo_code === null
    ? {}
    : { promoCode: { code: row.promo_code, discount: minorToAmount(BigInt(row.promo_discount_minor ?? 0)) } };
}

/** What a deposit pays for beyond the balance; null for every other payment. */
function purchaseOf(row: PaymentRow): DepositPurchase | null {
  if (row.purchase_kind === null || row.purchase_status === null) return null;
  return {
    kind: row.purchase_kind,
    paymentPlanId: row.purchase_plan_id ?? '',
    planName: row.purchase_plan_name ?? '',
    subscriptionId: row.purchase_subscription_id,
    status: row.purchase_status,
    errorCode: row.purchase_error_code,
  };
}

/** The card provider's side of a card deposit's row; null for every other payment. */
function cardOf(row: PaymentRow): PaymentCard | null {
  if (row.card_provider === null) return null;
  return {
    provider: row.card_provider,
    checkoutSessionId: row.card_checkout_session_id ?? '',
    providerPaymentId: row.provider_payment_id,
    providerStatus: (row.provider_status ?? 'unpaid') as CardProviderStatus,
    amountAsked: minorToAmount(BigInt(row.amount_asked_minor ?? 0)),
    amountReceived: minorToAmount(BigInt(row.amount_received_minor ?? 0)),
    reported:
      row.review_amount_minor === null
        ? null
        : { currency: row.review_currency, amount: minorToAmount(BigInt(row.review_amount_minor)) },
  };
}

/** The cashier's side of a crypto deposit's row; null for every other payment. */
function cashierOf(row: PaymentRow): PaymentCashier | null {
  if (row.cashier_provider === null) return null;
  return {
    provider: row.cashier_provider,
    invoiceId: row.cashier_invoice_id ?? '',
    invoiceUrl: row.cashier_invoice_url ?? '',
    providerPaymentId: row.provider_payment_id,
    providerStatus: row.provider_status as CashierProviderStatus | null,
    payCurrency: row.cashier_pay_currency ?? '',
    amountAsked: minorToAmount(BigInt(row.amount_asked_minor ?? 0)),
    amountReceived: minorToAmount(BigInt(row.amount_received_minor ?? 0)),
    amountHeld: row.review_amount_minor === null ? null : minorToAmount(BigInt(row.review_amount_minor)),
  };
}

export function toPayment(row: PaymentRow, audience: 'staff'): StaffPayment;
export function toPayment(row: PaymentRow, audience: PaymentAudience): Payment;
export function toPayment(row: PaymentRow, audience: PaymentAudience): Payment {
  return audienceView(
    {
      paymentId: Number(row.payment_id),
      userUuid: row.user_uuid,
      userEmail: row.user_email,
      amount: minorToAmount(BigInt(row.amount_minor)),
      currency: row.currency,
      status: row.status,
      method: row.method,
      type: row.type,
      aggregator: row.aggregator,
      comment: row.comment,
      publicNote: row.public_note,
      senderProfileId: row.sender_profile_id,
      recipientProfileId: row.recipient_profile_id,
      discountPercent: row.discount_percent,
      transferId: row.transfer_id,
      bonusPaymentId: row.bonus_payment_id === null ? null : Number(row.bonus_payment_id),
      bonusForPaymentId: row.bonus_for_payment_id === null ? null : Number(row.bonus_for_payment_id),
      createdAt: row.created_at.toISOString(),
      createdBy: row.created_by,
      updatedAt: row.updated_at.toISOString(),
      updatedBy: row.updated_by,
      cashier: cashierOf(row),
      card: cardOf(row),
      purchase: purchaseOf(row),
      ...paidForOf(row),
      ...promoCodeOf(row),
      // Only a refunded payment carries it, so every other answer stays what it was (ADR 0092).
      ...(row.refunded_by_payment_id === null ? {} : { refundedByPaymentId: Number(row.refunded_by_payment_id) }),
    },
    { createdBy: row.created_by_public, updatedBy: row.updated_by_public },
    audience,
  );
}

/**
 * The payload one audience reads: staff the whole payment; a customer the same without the `comment` field, with the
 * authors as the owner sees them.
 */
export function audienceView(
  payment: StaffPayment,
  publicAuthors: { createdBy: string; updatedBy: string },
  audience: PaymentAudience,
): Payment {
  if (audience === 'staff') return payment;
  const { comment: _internal, ...shared } = payment;
  return { ...shared, createdBy: publicAuthors.createdBy, updatedBy: publicAuthors.updatedBy };
}

/**
 * What a keyword matches. Staff match the indexed `search_text`, which holds the internal comment; a customer's
 * keyword must not, or it would let them probe the comment's words, so it matches the fields they see, over their
 * own rows only (the owner condition narrows the scan to them).
 */
function searchTextOf(audience: PaymentAudience): string {
  return audience === 'staff'
    ? 'p.search_text'
    : `lower(concat_ws(' ', p.payment_id, p.user_email, p.public_note, p.sender_profile_id, p.recipient_profile_id))`;
}

/**
 * A keyword that is a whole e-mail address means that client's payments: it matches the owner's address exactly,
 * whatever the case (served by the `(user_email, created_at, payment_id)` index), where a substring match would also
 * find every longer address containing it. Over every client's payments, a keyword shorter than the trigram index
 * serves that is made of digits is that payment number (ADR 0115; `checkPaymentKeyword` refuses any other). Anything
 * else matches as a substring (docs/product.md, Business constants).
 */
function keywordCondition(
  keyword: string,
  audience: PaymentAudience,
  everyClient: boolean,
  parameters: SqlParameters,
): string {
  if (PATTERNS.email.test(keyword)) return `p.user_email = ${parameters.add(normalizeEmail(keyword))}`;
  if (everyClient && isPaymentNumberKeyword(keyword)) return `p.payment_id = ${parameters.add(keyword)}::bigint`;
  return `${searchTextOf(audience)} LIKE ${parameters.add(likePattern(keyword))}`;
}

/**
 * Over every client's payments a keyword has at least `LIMITS.keywordMinLength` characters, or is a payment number
 * (ADR 0115): the trigram index answers a longer one that matches nothing at once, where a shorter one could only
 * be compared with every row in reach. One client's rows are few enough for any keyword.
 */
export function checkPaymentKeyword(filters: PaymentFilters, ownerUuid: string | null): void {
  const tooShort = ownerUuid === null ? paymentKeywordTooShort(filters.keyWord ?? '') : null;
  if (tooShort)
    throw new ValidationFailedError([{ field: 'keyWord', error: 'error.validation.min.length', params: tooShort }]);
}

/** `%`, `_` and the escape character itself match literally inside a keyword. */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function upperBound(to: string): Date {
  const date = new Date(to);
  return DATE_ONLY.test(to) ? new Date(date.getTime() + DAY_MS) : date;
}

/**
 * A date range whose start is after its end can match nothing: it is refused as the statement's is, so that a mistyped
 * range says so instead of answering an empty list (ADR 0115).
 */
export function checkPaymentDateRange(filters: PaymentFilters): void {
  const from = filters.createdDate?.from;
  const to = filters.createdDate?.to;
  if (!from || !to) return;
  const start = new Date(from).getTime();
  const end = upperBound(to).getTime();
  if (DATE_ONLY.test(to) ? start >= end : start > end)
    throw new ValidationFailedError([{ field: 'createdDate.to', error: 'error.validation.range.reversed' }]);
}

/**
 * Whether a search looks only at the latest `LIMITS.keywordSearchRecentPayments` payments (ADR 0115): a keyword over
 * every client's rows without dates or a payment id. Such a search reads at most that many rows whatever the keyword
 * matches; without the bound a keyword that matches nothing walks the whole table newest first, looking for a page
 * it never fills. Dates or an id are the staff member's own bound; one user's rows are bounded by their index.
 */
export function isBoundedToRecentPayments(filters: PaymentFilters, ownerUuid: string | null): boolean {
  const keyword = filters.keyWord?.trim();
  if (!keyword || isOneUsersRows(filters, ownerUuid)) return false;
  if (filters.id !== undefined && filters.id !== null) return false;
  // A short keyword of digits is one payment number, found by its key (see keywordCondition).
  if (isPaymentNumberKeyword(keyword)) return false;
  return !filters.createdDate?.from && !filters.createdDate?.to;
}

/**
 * The creation time of the oldest of the latest `LIMITS.keywordSearchRecentPayments` payments, in the order the
 * search lists them: a backward walk of `payments_created_id` that reads index entries only (no row when there are
 * fewer payments, and then nothing is left out). It reads that many index entries, 10 to 70 ms on the bench's
 * machine, so the handler keeps the answer a minute: a start a little old only lets in a few more rows.
 */
export const RECENT_PAYMENTS_START_SQL = `SELECT w.created_at FROM payments w ORDER BY w.created_at DESC, w.payment_id DESC
  OFFSET ${LIMITS.keywordSearchRecentPayments - 1} LIMIT 1`;

/**
 * The count of a search bounded to the latest payments (ADR 0120), at most `LIMITS.searchWindowRows` as every count
 * (ADR 0010). The bound's rows are read first, behind `OFFSET 0` (PostgreSQL plans such a subquery on its own), and
 * the filters, the keyword included, are checked on them: the count then reads at most the bound, whatever the
 * keyword matches elsewhere. Left to itself PostgreSQL ANDs the bound with the keyword's trigram list over the whole
 * table, which for a frequent keyword is a sixth of it and grows with it (550 ms at 1 M). `where` is the search's
 * WHERE without the bound (or ''), `start` the parameter holding the bound's start; the rows counted are exactly
 * those the page lists from.
 */
export function latestPaymentsCountSql(where: string, start: string): string {
  return rangeWalkCountSql(where, `p.created_at >= ${start}`);
}

/**
 * The relation a page bounded to the latest payments reads instead of `payments p` (ADR 0123): the bound's rows newest
 * first, behind `OFFSET 0`, so that PostgreSQL walks `payments_created_id` from the newest row and stops at the page
 * (or at the bound), whatever it guesses of the keyword. Left to itself it reads the keyword's trigram lists, which
 * for a keyword made of trigrams every row has (a client's address: `sca`, `cal`, `ale`) costs ten times the walk.
 */
export function latestPaymentsRelation(start: string): string {
  return `(SELECT * FROM payments p WHERE p.created_at >= ${start} ORDER BY ${DEFAULT_ORDER} OFFSET 0) p`;
}

/**
 * The page and the count of a bounded keyword in the default order, from one walk of the bound (ADR 0123): the ids
 * and times of the matches among the latest payments, newest first, at most `LIMITS.searchWindowRows`, are kept once
 * (`MATERIALIZED`); the count is theirs and the page is read by id from them. A walk that finds few matches (one
 * client's address among a thousand) reads the whole bound for the page alone, so a page and then a count walked it
 * twice. Only the two columns are kept, so a window of matches stays a few hundred kilobytes. The statement always
 * answers one row at least: the count with an empty page's columns all null when the page is past the matches.
 * `where` is the search's WHERE on `p` alone; `pageLimit` and `pageOffset` are numbers the caller has checked.
 */
export function latestPaymentsPageAndCountSql(
  where: string,
  start: string,
  relation: (payments: string) => string,
  pageLimit: number,
  pageOffset: number,
): string {
  const chosen = `(SELECT payments.* FROM (SELECT payment_id, created_at FROM matches
      ORDER BY created_at DESC, payment_id DESC LIMIT ${pageLimit} OFFSET ${pageOffset}) chosen
      JOIN payments ON payments.payment_id = chosen.payment_id) p`;
  return `WITH matches AS MATERIALIZED (
      SELECT p.payment_id, p.created_at FROM ${latestPaymentsRelation(start)} ${where}
      LIMIT ${LIMITS.searchWindowRows})
    SELECT counted.total_matches, page.*
      FROM (SELECT count(*)::int AS total_matches FROM matches) counted
      LEFT JOIN LATERAL (SELECT ${PAYMENT_COLUMNS} FROM ${relation(chosen)} ORDER BY ${DEFAULT_ORDER}) page ON true`;
}

/**
 * The count of a search within a range of creation times that holds few rows, read as ADR 0120 reads the latest
 * payments (ADR 0123): the range's rows behind `OFFSET 0`, the search's filters checked on them, at most
 * `LIMITS.searchWindowRows`. `range` is the range's conditions on `p.created_at`; `where` the search's WHERE (or '').
 */
export function rangeWalkCountSql(where: string, range: string): string {
  return `SELECT count(*)::int AS total FROM (SELECT 1
    FROM (SELECT * FROM payments p WHERE ${range} OFFSET 0) p ${where}
    LIMIT ${LIMITS.searchWindowRows}) capped`;
}

/**
 * The count of a keyword within picked dates (ADR 0125): the matches among the range's newest
 * `LIMITS.keywordDatedCountPayments` payments, at most `LIMITS.searchWindowRows`, and whether the range holds more
 * payments than that (`more`: then a count under the window is a lower bound). The `LIMIT` keeps the walk a subquery
 * of its own, so PostgreSQL walks `payments_created_id` newest first whatever it guesses of the keyword, and reads at
 * most that many rows however long the range: a week of "wire from" walked 60,000 rows to its 10,000th match (45 to
 * 75 ms at 10 M), and a range of more than a week read the keyword's trigram list over the whole table (seconds).
 * `more` reads index entries only. `range` is the range's conditions on `p.created_at`; `where` the search's WHERE.
 */
export function datedKeywordCountSql(where: string, range: string): string {
  const walked = LIMITS.keywordDatedCountPayments;
  return `SELECT (SELECT count(*)::int FROM (SELECT 1
      FROM (SELECT * FROM payments p WHERE ${range} ORDER BY ${DEFAULT_ORDER} LIMIT ${walked}) p ${where}
      LIMIT ${LIMITS.searchWindowRows}) capped) AS total,
    EXISTS (SELECT 1 FROM payments p WHERE ${range} ORDER BY ${DEFAULT_ORDER} OFFSET ${walked}) AS more`;
}

/**
 * Whether a search is a keyword over every client's payments within dates the staff member picked (ADR 0123): the
 * searches ADR 0115 leaves unbounded because of their dates, whose count walks the range's newest payments
 * (`datedKeywordCountSql`, ADR 0125) instead of reading the keyword's trigram list over the whole table.
 */
export function isDatedKeywordSearch(filters: PaymentFilters, ownerUuid: string | null): boolean {
  const keyword = filters.keyWord?.trim();
  if (!keyword || isOneUsersRows(filters, ownerUuid)) return false;
  if (filters.id !== undefined && filters.id !== null) return false;
  if (isPaymentNumberKeyword(keyword)) return false;
  return Boolean(filters.createdDate?.from || filters.createdDate?.to);
}

/**
 * The WHERE clause of a payments search or export. `ownerUuid` restricts the rows to one user's (a client's own
 * rows, or the client tab of staff). Every value travels as a parameter.
 */
export function paymentWhere(
  filters: PaymentFilters,
  ownerUuid: string | null,
  parameters: SqlParameters,
  audience: PaymentAudience = 'staff',
  subscriptionPayments?: SubscriptionPaymentDetails,
): string {
  const conditions: string[] = [];
  if (filters.promoCode) {
    assert(subscriptionPayments !== undefined, 'a promo code filter reads the subscriptions relation');
    // A semi-join on the owner's relation, so that the count (which reads `payments p` alone) filters as the page does.
    conditions.push(
      `p.payment_id IN (SELECT pc.payment_id FROM ${subscriptionPayments.relation} pc
        WHERE pc.promo_code = ${parameters.add(normalizePromoCode(filters.promoCode) ?? filters.promoCode)})`,
    );
  }
  if (ownerUuid !== null) conditions.push(`p.user_uuid = ${parameters.add(ownerUuid)}::uuid`);
  const keyword = filters.keyWord?.trim();
  if (keyword) conditions.push(keywordCondition(keyword, audience, ownerUuid === null, parameters));
  if (filters.id !== undefined && filters.id !== null)
    conditions.push(`p.payment_id = ${parameters.add(filters.id)}::bigint`);
  for (const [column, values] of enumeratedFilters(filters)) {
    if (values && values.length > 0) conditions.push(`${column} = ANY(${parameters.add(values)}::text[])`);
  }
  conditions.push(...paymentDateConditions(filters, parameters));
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** The conditions of `createdDate` (none, one or two), each value a parameter. */
export function paymentDateConditions(filters: PaymentFilters, parameters: SqlParameters): string[] {
  const conditions: string[] = [];
  const from = filters.createdDate?.from;
  const to = filters.createdDate?.to;
  if (from) conditions.push(`p.created_at >= ${parameters.add(new Date(from))}`);
  if (to) {
    const bound = upperBound(to);
    conditions.push(
      DATE_ONLY.test(to) ? `p.created_at < ${parameters.add(bound)}` : `p.created_at <= ${parameters.add(bound)}`,
    );
  }
  return conditions;
}

/**
 * The ORDER BY of a payments search or export: the requested sorts, then newest first. When the first sort is the
 * creation time itself, the payment id follows its direction, so one index serves both directions.
 *
 * In the default order, a filter on one value of an enumerated column (`types: ['WITHDRAW']`) leads the ORDER BY with
 * that column. Every matching row has the same value, so the order is unchanged, but it is then exactly the order of
 * the `(column, created_at DESC, payment_id DESC)` index, which reads just the page. Without it PostgreSQL walks the
 * creation-time index and filters, expecting matches spread evenly over time; when the newest rows are all of
 * another kind (a day of transfers above the withdrawals) it reads every one of them first (ADR 0042). The filter
 * stays `= ANY(…)`: written as `=`, the planner would know the column constant and drop it from the sort again.
 * One user's rows keep the plain order (see `isOneUsersRows`).
 */
export function paymentOrderBy(
  filters: PaymentFilters,
  ownerUuid: string | null = null,
  { walksLatestPayments = false }: { walksLatestPayments?: boolean } = {},
): string {
  const sorts = filters.sorts ?? [];
  const first = sorts[0];
  // A page that walks the latest payments (ADR 0123) reads them in the default order already.
  if (first === undefined && !walksLatestPayments && !isOneUsersRows(filters, ownerUuid)) {
    const single = enumeratedFilters(filters).find(([, values]) => values?.length === 1);
    if (single) return `${single[0]}, ${DEFAULT_ORDER}`;
  }
  const fallback = first?.id === 'createdAt' ? `p.payment_id ${first.desc ? 'DESC' : 'ASC'}` : DEFAULT_ORDER;
  return orderByFromSorts(sorts, 'payments', SORT_COLUMNS, fallback);
}

/**
 * Whether the rows are one user's (the owner condition, or a keyword that is a whole e-mail address). Their own
 * `(user…, created_at)` indexes serve those newest first; leading with an enumerated column would make PostgreSQL sort
 * all of the user's matching rows instead, which costs more for a user with many payments.
 */
function isOneUsersRows(filters: PaymentFilters, ownerUuid: string | null): boolean {
  const keyword = filters.keyWord?.trim();
  return ownerUuid !== null || (keyword !== undefined && PATTERNS.email.test(keyword));
}

/**
 * The enumerated filters, each with its column. The order is the one `paymentOrderBy` picks a leading column in:
 * status first, since its rare values (PENDING) gain the most from their own index.
 */
function enumeratedFilters(filters: PaymentFilters): Array<[string, readonly string[] | undefined]> {
  return [
    ['p.status', filters.statuses],
    ['p.method', filters.methods],
    ['p.type', filters.types],
    ['p.aggregator', filters.aggregators],
  ];
}
