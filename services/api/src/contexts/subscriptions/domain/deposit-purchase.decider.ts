import type {
  DepositPurchase,
  DepositPurchaseCompletedData,
  DepositPurchaseFailedData,
  DepositPurchaseRequestedData,
  DepositPurchaseStatus,
  ErrorCode,
} from '@kupa/proto';
import { assert, type Decider } from '../../../kernel';

/**
 * The purchase a deposit pays for (docs/adr/0030-deposit-and-buy.md, docs/adr/0068-deposit-purchases-owned-by-
 * subscriptions.md): requested with the deposit, then DONE in the append of the purchase or renewal it paid for, or
 * FAILED with the rule's code while the money stays on the balance. The subscriptions context owns it on its own
 * stream, `purchase-{paymentId}`, locked beside the deposit's payment stream; the events keep the names and
 * data they had on the payment stream, so a history written before keeps its meaning.
 */

export const DEPOSIT_PURCHASE_STREAM_PREFIX = 'purchase-';

export function depositPurchaseStreamId(paymentId: number): string {
  return `${DEPOSIT_PURCHASE_STREAM_PREFIX}${paymentId}`;
}

export type DepositPurchaseEvent =
  | { type: 'DepositPurchaseRequested'; data: DepositPurchaseRequestedData }
  | { type: 'DepositPurchaseCompleted'; data: DepositPurchaseCompletedData }
  | { type: 'DepositPurchaseFailed'; data: DepositPurchaseFailedData };

export const DEPOSIT_PURCHASE_EVENT_TYPES: readonly DepositPurchaseEvent['type'][] = Object.freeze([
  'DepositPurchaseRequested',
  'DepositPurchaseCompleted',
  'DepositPurchaseFailed',
]);

/** The purchase as requested (its price the most it may cost), and how it stands. */
export interface DepositPurchaseState extends Omit<DepositPurchaseRequestedData, 'requestedAt'> {
  status: DepositPurchaseStatus;
  errorCode: ErrorCode | null;
  /** The SUBSCRIPTION_PAYMENT that paid for it, once DONE. */
  subscriptionPaymentId: number | null;
  updatedAt: string;
}

export type DepositPurchaseCommand =
  | { type: 'RequestDepositPurchase'; purchase: DepositPurchaseRequestedData; byCard: boolean }
  | {
      /** The purchase the deposit paid for happened (once: a purchase no longer WAITING decides nothing). */
      type: 'CompleteDepositPurchase';
      subscriptionPaymentId: number;
      chargedMinor: number;
      completedAt: string;
    }
  | {
      /**
       * The purchase could not follow; the money stays on the balance. Once, like the above. What the deposit brought
       * is the ledger's fact, read from the deposit's payment under its lock.
       */
      type: 'FailDepositPurchase';
      errorCode: ErrorCode;
      amountReceivedMinor: number;
      failedAt: string;
    };

/**
 * The purchase's events among a payment stream's (ADR 0068): before purchases had streams of their own, they were
 * appended to the deposit's payment stream. Those stay where they are (the history is hash-chained and immutable);
 * a purchase's fold reads them first, then its own stream.
 */
export function legacyDepositPurchaseEvents(
  paymentStreamEvents: readonly { type: string; data: unknown }[],
): DepositPurchaseEvent[] {
  return paymentStreamEvents.filter((event): event is DepositPurchaseEvent =>
    (DEPOSIT_PURCHASE_EVENT_TYPES as readonly string[]).includes(event.type),
  );
}

/** What a client reads of the purchase: a bought subscription's id only once it exists. */
export function depositPurchaseView(state: DepositPurchaseState): DepositPurchase {
  return {
    kind: state.kind,
    paymentPlanId: state.paymentPlanId,
    planName: state.planName,
    subscriptionId: state.kind === 'RENEW' || state.status === 'DONE' ? state.subscriptionId : null,
    status: state.status,
    errorCode: state.errorCode,
  };
}

function decide(command: DepositPurchaseCommand, state: DepositPurchaseState | null): DepositPurchaseEvent[] {
  switch (command.type) {
    case 'RequestDepositPurchase': {
      const { purchase } = command;
      assert(state === null, `deposit ${purchase.paymentId} pays for one purchase`);
      assert(Number.isSafeInteger(purchase.priceMinor) && purchase.priceMinor > 0, 'a purchase has a price');
      assert((purchase.kind === 'BUY') === (purchase.login !== null), 'a purchase names a login, a renewal none');
      assert(!command.byCard || purchase.kind === 'BUY', 'a card checkout buys a package under a login');
      return [{ type: 'DepositPurchaseRequested', data: purchase }];
    }
    case 'CompleteDepositPurchase': {
      assert(state !== null, 'only a deposit that pays for a purchase completes one');
      if (state.status !== 'WAITING') return [];
      return [
        {
          type: 'DepositPurchaseCompleted',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            kind: state.kind,
            subscriptionId: state.subscriptionId,
            subscriptionPaymentId: command.subscriptionPaymentId,
            chargedMinor: command.chargedMinor,
            completedAt: command.completedAt,
          },
        },
      ];
    }
    case 'FailDepositPurchase': {
      assert(state !== null, 'only a deposit that pays for a purchase fails one');
      if (state.status !== 'WAITING') return [];
      return [
        {
          type: 'DepositPurchaseFailed',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            kind: state.kind,
            errorCode: command.errorCode,
            amountReceivedMinor: command.amountReceivedMinor,
            failedAt: command.failedAt,
          },
        },
      ];
    }
  }
}

function evolve(state: DepositPurchaseState | null, event: DepositPurchaseEvent): DepositPurchaseState | null {
  switch (event.type) {
    case 'DepositPurchaseRequested': {
      const { requestedAt, ...purchase } = event.data;
      return { ...purchase, status: 'WAITING', errorCode: null, subscriptionPaymentId: null, updatedAt: requestedAt };
    }
    case 'DepositPurchaseCompleted':
      assert(state !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return {
        ...state,
        status: 'DONE',
        subscriptionPaymentId: event.data.subscriptionPaymentId,
        updatedAt: event.data.completedAt,
      };
    case 'DepositPurchaseFailed':
      assert(state !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return { ...state, status: 'FAILED', errorCode: event.data.errorCode, updatedAt: event.data.failedAt };
  }
}

export const depositPurchaseDecider: Decider<
  DepositPurchaseState | null,
  DepositPurchaseCommand,
  DepositPurchaseEvent
> = { decide, evolve, initialState: () => null };
