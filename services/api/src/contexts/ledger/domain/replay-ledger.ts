import {
  isLedgerAccount,
  type LedgerTransaction,
  SUBSCRIPTION_STREAM_PREFIX,
  type SubscriptionExtendedData,
  type SubscriptionPurchasedData,
  USER_ACCOUNT_PREFIX,
  userAccount,
  VOUCHER_BATCH_STREAM_PREFIX,
  voucherBatchStreamId,
} from '@kupa/proto';
import {
  type LedgerEvent,
  PAYMENT_EVENT_TYPES,
  type PaymentEvent,
  PAYMENT_STREAM_PREFIX,
  paymentStreamId,
  WALLET_EVENT_TYPES,
  WALLET_STREAM_PREFIX,
  walletStreamId,
} from './ledger.events';
import { customerAuthorLabel, type PaymentActor } from './payment-authors';
import { paymentDecider } from './payment.decider';
import type { PaymentState } from './payment.state';
import { isValidPosting, netChangeMinor, postingSides } from './postings';
import {
  ALL_VOUCHER_EVENT_TYPES,
  dayVoucherCodeOfExtensionKey,
  outstandingMinor,
  VOUCHER_LIABILITY_ACCOUNT,
  voucherBatchEvolution,
  type VoucherBatchState,
  type VoucherEvent,
} from './voucher-batch.decider';
import { SUBSCRIPTION_REVENUE_ACCOUNT, walletDecider } from './wallet.decider';
import type { WalletState } from './wallet.state';

/** The part of a stored event replay needs; `RecordedEvent` fits. Events must come in store order. */
export interface ReplayableEvent {
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata?: { occurredAt?: string; actor?: PaymentActor };
  globalPosition?: string;
}

/** One booked posting as seen from one account, as the `ledger_entries` read model holds it. */
export interface ReplayedEntry {
  transactionId: string;
  postingIndex: number;
  account: string;
  counterAccount: string;
  /** Positive credits the account, negative debits it. */
  amountMinor: number;
  /** The running balance of a `user:` account after this entry; null for system accounts. */
  balanceAfterMinor: number | null;
  paymentId: number | null;
  eventType: string;
  occurredAt: string | null;
  globalPosition: string | null;
}

export interface ReplayedPayment extends PaymentState {
  createdBy: string | null;
  updatedBy: string | null;
  /** The authors as the payment's owner sees them (`customerAuthorLabel`). */
  createdByPublic: string;
  updatedByPublic: string;
}

export interface LedgerProblem {
  kind:
    | 'stream.version.gap'
    | 'posting.invalid'
    | 'transaction.duplicate'
    | 'transaction.unbalanced'
    | 'balance.negative.unconfirmed'
    | 'wallet.mismatch'
    | 'transfer.unmatched'
    | 'payment.unknown'
    | 'ledger.total.nonzero'
    | 'voucher.invalid'
    | 'voucher.unmatched'
    | 'voucher.liability.mismatch';
  message: string;
  streamId?: string;
  streamVersion?: number;
}

export interface LedgerReplay {
  /**
   * Every account any transaction touched, system accounts included; cents. Continued from a checkpoint
   * (`LedgerReplayStart`), only the accounts the replayed events moved or read (`accountsReplayReads`).
   */
  accountBalances: Record<string, number>;
  payments: Record<number, ReplayedPayment>;
  /** Per wallet stream: the state a snapshot at the stream's last version must hold. */
  walletSnapshots: Record<string, { version: number; state: WalletState }>;
  entries: ReplayedEntry[];
  /** Per voucher batch: its state after every event, for `voucher_batches` and `voucher_redemptions`. */
  voucherBatches: Record<string, VoucherBatchState>;
  transactionCount: number;
  eventCount: number;
  problems: LedgerProblem[];
}

const WALLET_TYPES: ReadonlySet<string> = new Set(WALLET_EVENT_TYPES);
const PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_EVENT_TYPES);
const VOUCHER_TYPES: ReadonlySet<string> = new Set(ALL_VOUCHER_EVENT_TYPES);
/** The subscription events that may carry a day voucher's days: a new subscription's, or an extension's. */
const DAY_VOUCHER_GRANT_TYPES: ReadonlySet<string> = new Set(['SubscriptionPurchased', 'SubscriptionExtended']);

/** What a day code gave, as the batch's redemption or the subscription's event tells it. */
interface DayVoucherGrant {
  subscriptionId: string;
  days: number;
}

type DepositPurchaseOutcome = Extract<PaymentEvent, { type: 'DepositPurchaseCompleted' | 'DepositPurchaseFailed' }>;

/**
 * What the replay makes of a stored event: a wallet's event on its wallet stream, a payment's on its payment stream,
 * or a purchase's completion or failure appended beside its deposit on the purchase's own stream (ADR 0068); null
 * for every other event, which a reader of the store may skip undecoded.
 */
function replayedKindOf(event: {
  streamId: string;
  type: string;
}): 'wallet' | 'payment' | 'purchaseOutcome' | 'voucherBatch' | 'dayVoucherGrant' | null {
  if (event.streamId.startsWith(VOUCHER_BATCH_STREAM_PREFIX) && VOUCHER_TYPES.has(event.type)) return 'voucherBatch';
  if (event.streamId.startsWith(SUBSCRIPTION_STREAM_PREFIX) && DAY_VOUCHER_GRANT_TYPES.has(event.type))
    return 'dayVoucherGrant';
  if (event.type === 'DepositPurchaseCompleted' || event.type === 'DepositPurchaseFailed') {
    if (!event.streamId.startsWith(PAYMENT_STREAM_PREFIX)) return 'purchaseOutcome';
  }
  if (event.streamId.startsWith(WALLET_STREAM_PREFIX) && WALLET_TYPES.has(event.type)) return 'wallet';
  if (event.streamId.startsWith(PAYMENT_STREAM_PREFIX) && PAYMENT_TYPES.has(event.type)) return 'payment';
  return null;
}

/** Whether the replay makes anything of `event` (`replayedKindOf`); the verifier decodes only those. */
export function isReplayedEvent(event: { streamId: string; type: string }): boolean {
  return replayedKindOf(event) !== null;
}

function isPaymentEvent(event: LedgerEvent): event is PaymentEvent {
  return PAYMENT_TYPES.has(event.type);
}

function actorLabel(event: ReplayableEvent): string | null {
  const actor = event.metadata?.actor;
  if (!actor) return null;
  return actor.email ?? actor.name ?? null;
}

/**
 * Where a replay that continues a verified checkpoint starts (ADR 0111, ADR 0122): each account's balance at the
 * checkpoint (a wallet's state starts from its account's), and each stream's version there. Absent, a replay starts
 * from nothing. The checkpoint's balances sum to zero (the verify that wrote it checked so).
 */
export interface LedgerReplayStart {
  /**
   * An account's balance at the checkpoint, asked once per account the replay moves or reads, and only for those
   * `accountsReplayReads` names for the events applied: a caller may load just those.
   */
  accountBalance(account: string): number;
  streamVersion(streamId: string): number;
}

function postingAccounts(transaction: unknown): string[] {
  const postings = (transaction as { postings?: unknown } | null | undefined)?.postings;
  if (!Array.isArray(postings)) return [];
  const accounts: string[] = [];
  for (const posting of postings as Array<{ source?: unknown; destination?: unknown } | null>) {
    if (typeof posting?.source === 'string') accounts.push(posting.source);
    if (typeof posting?.destination === 'string') accounts.push(posting.destination);
  }
  return accounts;
}

/**
 * The accounts whose balance the replay moves or reads when it applies `event` (ADR 0122): the postings' accounts of
 * the transaction it books, and a wallet event's owner's account, which its wallet state is checked against. Pure, so
 * that a since-checkpoint verify can load those accounts' checkpoint balances before it replays a batch of events.
 */
export function accountsReplayReads(event: { streamId: string; type: string; data: unknown }): string[] {
  const kind = replayedKindOf(event);
  const data = event.data as { transaction?: unknown; userUuid?: unknown } | null;
  if (kind === 'voucherBatch') return postingAccounts(data?.transaction);
  if (kind !== 'wallet' || PAYMENT_TYPES.has(event.type)) return [];
  const accounts = postingAccounts(data?.transaction);
  if (typeof data?.userUuid === 'string') accounts.push(userAccount(data.userUuid));
  return accounts;
}

/** A ledger replay fed one event at a time (`startLedgerReplay`). */
export interface LedgerReplayer {
  apply(event: ReplayableEvent): void;
  finish(): LedgerReplay;
}

/**
 * Recomputes, from raw ledger events alone, everything the ledger's read models claim: per-account balances, the
 * booked entries with user running balances, every payment, every wallet snapshot, and checks that every
 * transaction balances, is booked once, and never leaves a user below zero without a recorded override. Events of
 * other contexts are ignored. Pure: `kupa ledger verify` and the property tests both run it.
 *
 * Incremental, so that a caller reading the store in batches holds the replay's state but never the whole history:
 * `apply` each event in store order, then `finish` once for the checks that need every event (transfers matched,
 * the ledger summing to zero) and the result.
 */
export function startLedgerReplay(start?: LedgerReplayStart): LedgerReplayer {
  let finished = false;
  const accountBalances: Record<string, number> = {};
  /** Continued from a checkpoint: the balance each account had there, asked when the replay first needs it. */
  const startBalances: Record<string, number> = {};
  const balanceOf: (account: string) => number = start
    ? (account) => {
        if (!Object.hasOwn(accountBalances, account)) {
          const balanceMinor = start.accountBalance(account);
          startBalances[account] = balanceMinor;
          accountBalances[account] = balanceMinor;
        }
        return accountBalances[account];
      }
    : (account) => accountBalances[account] ?? 0;
  /** The account's balance at the checkpoint, whatever the window has booked to it since. */
  const startBalanceOf = (account: string): number => {
    balanceOf(account);
    return startBalances[account];
  };
  const payments: Record<number, ReplayedPayment> = {};
  const walletSnapshots: Record<string, { version: number; state: WalletState }> = {};
  const entries: ReplayedEntry[] = [];
  const problems: LedgerProblem[] = [];
  const booked = new Set<string>();
  const sentTransfers = new Map<string, { recipientUuid: string; amountMinor: number; streamId: string }>();
  const receivedTransfers = new Map<string, { userUuid: string; amountMinor: number; streamId: string }>();
  const streamVersions = new Map<string, number>();
  const creditsAwaitingReceiptMinor = new Map<string, number>();
  const voucherBatches: Record<string, VoucherBatchState> = {};
  /** Each code's redemption as its batch recorded it and as the wallet booked it, matched when the replay ends. */
  const codeRedemptions = new Map<string, { userUuid: string; paymentId: number; amountMinor: number }>();
  const walletRedemptions = new Map<string, { userUuid: string; paymentId: number; amountMinor: number }>();
  /**
   * Each day code's redemption as its batch recorded it and the days a subscription got for it (its
   * `SubscriptionExtended` of source VOUCHER, or the `SubscriptionPurchased` it started), matched when the replay ends.
   */
  const dayRedemptions = new Map<string, DayVoucherGrant>();
  const dayGrants = new Map<string, DayVoucherGrant>();
  let eventCount = 0;

  const problem = (kind: LedgerProblem['kind'], message: string, event?: ReplayableEvent): void => {
    problems.push(
      event ? { kind, message, streamId: event.streamId, streamVersion: event.streamVersion } : { kind, message },
    );
  };

  const book = (transaction: LedgerTransaction, event: ReplayableEvent, paymentId: number | null): void => {
    if (booked.has(transaction.transactionId)) {
      problem('transaction.duplicate', `transaction ${transaction.transactionId} is booked twice`, event);
      return;
    }
    booked.add(transaction.transactionId);
    let sumMinor = 0;
    transaction.postings.forEach((posting, postingIndex) => {
      if (!isValidPosting(posting) || !isLedgerAccount(posting.source) || !isLedgerAccount(posting.destination)) {
        problem('posting.invalid', `posting ${postingIndex} of ${transaction.transactionId} is invalid`, event);
        return;
      }
      for (const { account, counterAccount, amountMinor } of postingSides(posting)) {
        const balanceMinor = balanceOf(account) + amountMinor;
        accountBalances[account] = balanceMinor;
        sumMinor += amountMinor;
        entries.push({
          transactionId: transaction.transactionId,
          postingIndex,
          account,
          counterAccount,
          amountMinor,
          balanceAfterMinor: account.startsWith(USER_ACCOUNT_PREFIX) ? balanceMinor : null,
          paymentId,
          eventType: event.type,
          occurredAt: event.metadata?.occurredAt ?? null,
          globalPosition: event.globalPosition ?? null,
        });
      }
    });
    if (sumMinor !== 0)
      problem('transaction.unbalanced', `transaction ${transaction.transactionId} sums to ${sumMinor}`, event);
  };

  /**
   * Folds a payment's event into its replayed payment, with who made the change. A purchase's completion or failure
   * on the purchase's own stream (ADR 0068) is the subscriptions' event, but it stamps its deposit's last change as
   * the payment decider folds the same event on a deposit's stream, and as the payments projection does.
   */
  const foldPayment = (event: ReplayableEvent, paymentEvent: PaymentEvent, unknownMessage: string): void => {
    const paymentId = paymentEvent.data.paymentId;
    const previous = payments[paymentId] ?? null;
    if (paymentEvent.type !== 'PaymentRecorded' && previous === null) {
      problem('payment.unknown', `${unknownMessage} ${paymentId}`, event);
      return;
    }
    const next = paymentDecider.evolve(previous, paymentEvent);
    if (next === null) return;
    const publicAuthor = customerAuthorLabel(
      event.metadata?.actor,
      next.userUuid,
      paymentEvent.type === 'PaymentRecorded' ? next.senderProfileId : null,
    );
    payments[paymentId] = {
      ...next,
      createdBy: previous ? previous.createdBy : actorLabel(event),
      updatedBy: actorLabel(event),
      createdByPublic: previous ? previous.createdByPublic : publicAuthor,
      updatedByPublic: publicAuthor,
    };
  };

  /**
   * A voucher batch's event (ADR 0089): the batch's state follows it, a funding books its transaction once and for the
   * whole batch, and a code is redeemed only from a funded batch, once.
   */
  const applyVoucherBatch = (event: ReplayableEvent, voucherEvent: VoucherEvent): void => {
    const batchId = voucherEvent.data.batchId;
    if (event.streamId !== voucherBatchStreamId(batchId))
      problem('voucher.invalid', `batch ${batchId} in another stream`, event);
    const previous = voucherBatches[batchId] ?? null;
    if (voucherEvent.type === 'VoucherBatchGenerated') {
      if (previous !== null) problem('voucher.invalid', `batch ${batchId} generated twice`, event);
    } else if (previous === null) {
      problem('voucher.invalid', `batch ${batchId} was never generated`, event);
      return;
    }
    if (voucherEvent.type === 'VoucherBatchSold' || voucherEvent.type === 'VoucherBatchGivenAway') {
      if (previous?.funding) problem('voucher.invalid', `batch ${batchId} funded twice`, event);
      const { transaction } = voucherEvent.data;
      if (previous?.kind === 'DAYS') {
        // Days sold are subscription revenue at the sale; days given away move no money (ADR 0089).
        const soldFor = voucherEvent.data.amountMinor;
        const explained =
          voucherEvent.type === 'VoucherBatchSold'
            ? transaction !== null &&
              soldFor > 0 &&
              netChangeMinor(transaction, SUBSCRIPTION_REVENUE_ACCOUNT) === soldFor &&
              netChangeMinor(transaction, VOUCHER_LIABILITY_ACCOUNT) === 0
            : transaction === null && soldFor === 0;
        if (!explained)
          problem('voucher.invalid', `day batch ${batchId} funded by a transaction it cannot have`, event);
      } else {
        const expectedMinor = previous ? previous.count * previous.amountMinor : 0;
        const fundedMinor = transaction === null ? 0 : netChangeMinor(transaction, VOUCHER_LIABILITY_ACCOUNT);
        if (fundedMinor !== expectedMinor)
          problem('voucher.invalid', `batch ${batchId} funded ${fundedMinor}, worth ${expectedMinor}`, event);
      }
      if (transaction !== null) book(transaction, event, null);
    }
    if (voucherEvent.type === 'VoucherCodeRedeemed' && previous) {
      const { codeIndex, userUuid, paymentId, amountMinor } = voucherEvent.data;
      if (previous.funding === null) problem('voucher.invalid', `batch ${batchId} redeemed before funding`, event);
      if (previous.redeemed.has(codeIndex) || codeIndex < 0 || codeIndex >= previous.count)
        problem('voucher.invalid', `code ${codeIndex} of batch ${batchId} redeemed twice or out of range`, event);
      if (amountMinor !== previous.amountMinor)
        problem('voucher.invalid', `code ${codeIndex} of batch ${batchId} redeemed for ${amountMinor}`, event);
      if (previous.kind === 'DAYS') {
        // A day code credits no wallet: it names the subscription whose extension was appended with it.
        const { subscriptionId, days } = voucherEvent.data;
        if (paymentId !== null || !subscriptionId || days !== previous.days)
          problem('voucher.invalid', `day code ${codeIndex} of batch ${batchId} redeemed without its extension`, event);
        else dayRedemptions.set(`${batchId}:${codeIndex}`, { subscriptionId, days });
      } else if (paymentId === null) {
        problem('voucher.invalid', `code ${codeIndex} of batch ${batchId} redeemed without a payment`, event);
      } else {
        codeRedemptions.set(`${batchId}:${codeIndex}`, { userUuid, paymentId, amountMinor });
      }
    }
    voucherBatches[batchId] = voucherBatchEvolution.evolve(previous, voucherEvent) as VoucherBatchState;
  };

  /** A subscription's event that gave a day code's days: kept for the match with the code's redemption. */
  const applyDayVoucherGrant = (event: ReplayableEvent): void => {
    let code: { batchId: string; codeIndex: number } | null = null;
    let grant: DayVoucherGrant | null = null;
    if (event.type === 'SubscriptionPurchased') {
      const data = event.data as SubscriptionPurchasedData;
      if (!data.voucher) return;
      code = data.voucher;
      grant = { subscriptionId: data.subscriptionId, days: data.voucher.days };
    } else {
      const data = event.data as SubscriptionExtendedData;
      if (data.source !== 'VOUCHER') return;
      code = dayVoucherCodeOfExtensionKey(data.idempotencyKey);
      if (code === null || code.batchId !== data.voucherBatchId) {
        problem('voucher.invalid', `voucher extension with key ${data.idempotencyKey} names no code`, event);
        return;
      }
      grant = { subscriptionId: data.subscriptionId, days: data.days };
    }
    const key = `${code.batchId}:${code.codeIndex}`;
    if (dayGrants.has(key)) problem('voucher.invalid', `day code ${key} gave its days twice`, event);
    dayGrants.set(key, grant);
  };

  const apply = (event: ReplayableEvent): void => {
    if (finished) throw new Error('replayLedger: an event was applied after the replay finished');
    const kind = replayedKindOf(event);
    // A subscription's stream is not the ledger's: its versions and other events are not the replay's to check.
    if (kind === 'dayVoucherGrant') {
      applyDayVoucherGrant(event);
      return;
    }
    if (kind === 'purchaseOutcome') {
      foldPayment(
        event,
        { type: event.type, data: event.data } as DepositPurchaseOutcome,
        'purchase outcome of unrecorded payment',
      );
      return;
    }
    if (kind === null) return;
    eventCount += 1;
    const previousVersion = streamVersions.get(event.streamId) ?? start?.streamVersion(event.streamId) ?? 0;
    if (event.streamVersion !== previousVersion + 1) {
      problem('stream.version.gap', `expected version ${previousVersion + 1}, found ${event.streamVersion}`, event);
    }
    streamVersions.set(event.streamId, event.streamVersion);
    if (kind === 'voucherBatch') {
      applyVoucherBatch(event, { type: event.type, data: event.data } as VoucherEvent);
      return;
    }
    const ledgerEvent = { type: event.type, data: event.data } as LedgerEvent;

    if (kind === 'payment') {
      if (!isPaymentEvent(ledgerEvent)) return;
      const paymentId = ledgerEvent.data.paymentId;
      if (event.streamId !== paymentStreamId(paymentId))
        problem('wallet.mismatch', `payment ${paymentId} in another stream`, event);
      foldPayment(event, ledgerEvent, 'status change of unrecorded payment');
      return;
    }

    if (isPaymentEvent(ledgerEvent)) return;
    const owner = ledgerEvent.data.userUuid;
    if (event.streamId !== walletStreamId(owner))
      problem('wallet.mismatch', `event for ${owner} in another wallet`, event);
    switch (ledgerEvent.type) {
      case 'TransferSent':
        book(ledgerEvent.data.transaction, event, ledgerEvent.data.outPaymentId);
        sentTransfers.set(ledgerEvent.data.transaction.transactionId, {
          recipientUuid: ledgerEvent.data.recipientUuid,
          amountMinor: ledgerEvent.data.amountMinor,
          streamId: event.streamId,
        });
        break;
      case 'TransferReceived':
        receivedTransfers.set(ledgerEvent.data.transactionId, {
          userUuid: owner,
          amountMinor: ledgerEvent.data.amountMinor,
          streamId: event.streamId,
        });
        break;
      case 'VoucherRedeemed': {
        const { batchId, codeIndex, paymentId, amountMinor } = ledgerEvent.data;
        const key = `${batchId}:${codeIndex}`;
        if (walletRedemptions.has(key)) problem('voucher.invalid', `code ${key} credited twice`, event);
        walletRedemptions.set(key, { userUuid: owner, paymentId, amountMinor });
        book(ledgerEvent.data.transaction, event, paymentId);
        break;
      }
      default:
        book(ledgerEvent.data.transaction, event, ledgerEvent.data.paymentId);
    }
    if (ledgerEvent.type === 'TransferSent') {
      const recipient = ledgerEvent.data.recipientUuid;
      creditsAwaitingReceiptMinor.set(
        recipient,
        (creditsAwaitingReceiptMinor.get(recipient) ?? 0) + ledgerEvent.data.amountMinor,
      );
    }
    if (ledgerEvent.type === 'TransferReceived') {
      creditsAwaitingReceiptMinor.set(
        owner,
        (creditsAwaitingReceiptMinor.get(owner) ?? 0) - ledgerEvent.data.amountMinor,
      );
    }
    const snapshot = walletSnapshots[event.streamId] ?? {
      version: 0,
      state: start ? { balanceMinor: startBalanceOf(userAccount(owner)) } : walletDecider.initialState(),
    };
    const state = walletDecider.evolve(snapshot.state, ledgerEvent);
    walletSnapshots[event.streamId] = { version: event.streamVersion, state };
    const overdraftConfirmed =
      (ledgerEvent.type === 'PaymentReversed' || ledgerEvent.type === 'PaymentReapplied') &&
      ledgerEvent.data.overdraftConfirmedBy !== null;
    // A credit may leave a balance that an earlier, confirmed override made negative still below zero.
    const debited = state.balanceMinor < snapshot.state.balanceMinor;
    if (debited && state.balanceMinor < 0 && !overdraftConfirmed) {
      problem('balance.negative.unconfirmed', `${owner} reached ${state.balanceMinor} without a confirmation`, event);
    }
    // The two events of a transfer land in the store in stream-id order, so either may be replayed first; the
    // credit a receipt announces is set against the one its transaction books.
    const accountMinor = balanceOf(userAccount(owner));
    const expectedMinor = accountMinor - (creditsAwaitingReceiptMinor.get(owner) ?? 0);
    if (state.balanceMinor !== expectedMinor) {
      problem(
        'wallet.mismatch',
        `wallet state ${state.balanceMinor} differs from its account's ${expectedMinor}`,
        event,
      );
    }
  };

  const finish = (): LedgerReplay => {
    if (finished) throw new Error('replayLedger: the replay was finished twice');
    finished = true;
    for (const [transactionId, sent] of sentTransfers) {
      const received = receivedTransfers.get(transactionId);
      if (!received || received.userUuid !== sent.recipientUuid || received.amountMinor !== sent.amountMinor) {
        problem('transfer.unmatched', `transfer transaction ${transactionId} has no matching receipt`);
      }
    }
    for (const transactionId of receivedTransfers.keys()) {
      if (!sentTransfers.has(transactionId))
        problem('transfer.unmatched', `receipt of ${transactionId} was never sent`);
    }
    const same = (a: { userUuid: string; paymentId: number; amountMinor: number }, b: typeof a) =>
      a.userUuid === b.userUuid && a.paymentId === b.paymentId && a.amountMinor === b.amountMinor;
    for (const [key, recorded] of codeRedemptions) {
      const credited = walletRedemptions.get(key);
      if (!credited || !same(recorded, credited)) problem('voucher.unmatched', `code ${key} has no matching credit`);
    }
    for (const key of walletRedemptions.keys()) {
      if (!codeRedemptions.has(key)) problem('voucher.unmatched', `credit of code ${key} was never redeemed`);
    }
    for (const [key, redeemed] of dayRedemptions) {
      const granted = dayGrants.get(key);
      if (!granted || granted.subscriptionId !== redeemed.subscriptionId || granted.days !== redeemed.days)
        problem('voucher.unmatched', `day code ${key} has no matching subscription days`);
    }
    for (const key of dayGrants.keys()) {
      if (!dayRedemptions.has(key)) problem('voucher.unmatched', `days of code ${key} were never redeemed`);
    }
    // What the liability holds is exactly what the batches still owe: sold or given, less what was redeemed.
    const owedMinor = Object.values(voucherBatches).reduce((sum, batch) => sum + outstandingMinor(batch), 0);
    // Continued from a checkpoint, the batches are the window's alone: the liability cannot be judged (ADR 0111).
    const liabilityMinor = start ? owedMinor : (accountBalances[VOUCHER_LIABILITY_ACCOUNT] ?? 0);
    if (liabilityMinor !== owedMinor)
      problem('voucher.liability.mismatch', `liability:vouchers holds ${liabilityMinor}, the batches owe ${owedMinor}`);
    // The checkpoint's balances sum to zero, so the accounts the window moved must sum to what they held there.
    const totalMinor = Object.keys(accountBalances).reduce(
      (sum, account) => sum + accountBalances[account] - (startBalances[account] ?? 0),
      0,
    );
    if (totalMinor !== 0) problem('ledger.total.nonzero', `all accounts sum to ${totalMinor}`);

    return {
      accountBalances,
      payments,
      walletSnapshots,
      entries,
      voucherBatches,
      transactionCount: booked.size,
      eventCount,
      problems,
    };
  };

  return { apply, finish };
}

/** The whole replay of `events` at once: what the property tests and fixtures use. */
export function replayLedger(events: Iterable<ReplayableEvent>): LedgerReplay {
  const replay = startLedgerReplay();
  for (const event of events) replay.apply(event);
  return replay.finish();
}
