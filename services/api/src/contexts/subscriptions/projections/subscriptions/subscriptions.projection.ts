import { LIMITS, SYSTEM_ACTOR_NAME } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { ALL_SUBSCRIPTION_EVENT_TYPES, type SubscriptionEvent } from '../../domain/subscription.events';

/** Who the subscriptions list shows as the author of a change: the actor's e-mail, or SYSTEM. */
export function actorLabelOf(event: Pick<RecordedEvent, 'metadata'>): string {
  return event.metadata?.actor?.email ?? event.metadata?.actor?.name ?? SYSTEM_ACTOR_NAME;
}

/** The columns the rule of `nextPaymentDate` reads, with their types (a change may set one to a bare parameter). */
const RULE_COLUMNS = {
  status: 'text',
  is_recurrent: 'boolean',
  cancel_at_period_end: 'boolean',
  recurrence_deactivated: 'boolean',
  end_date: 'timestamptz',
  next_payment_date: 'timestamptz',
} as const;

/**
 * The rule of `nextPaymentDate` (the decider's `nextPaymentDateOf`) in SQL, applied after every change: the renewal
 * lead before the end for a recurrent ACTIVE (or GRACE) subscription nobody cancelled or switched off, none otherwise.
 * A failed renewal sets it to its next attempt, which stays (it is later than the lead) until a renewal moves the end.
 * `after` gives a column's value after the change, so the rule is set in the change's own `UPDATE`: a `SET` reads
 * the row as it was, and a second statement cost a row version and its index entries (issue 36, cut 4).
 */
function nextPaymentDate(after: (column: keyof typeof RULE_COLUMNS) => string): string {
  return `CASE
  WHEN ${after('status')} IN ('ACTIVE', 'GRACE') AND ${after('is_recurrent')} AND NOT ${after('cancel_at_period_end')}
       AND NOT ${after('recurrence_deactivated')} AND ${after('end_date')} IS NOT NULL
  THEN GREATEST(${after('end_date')} - make_interval(days => ${LIMITS.renewalLeadDays}), ${after('next_payment_date')})
  ELSE NULL END`;
}

/**
 * Keeps `subscriptions` in step with the subscription streams inside the append transaction, so a purchase answers
 * from it at once and the partial unique index on live logins refuses a login another live subscription holds (which
 * aborts the append).
 */
export class SubscriptionsProjection implements InlineProjection {
  readonly name = 'subscriptions';
  readonly handles = ALL_SUBSCRIPTION_EVENT_TYPES;
  readonly tables = ['subscriptions'];
  readonly replayChecked = [{ table: 'subscriptions', key: ['id'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as SubscriptionEvent;
      await this.applyOne(event, recorded.metadata.occurredAt, actorLabelOf(recorded), manager);
    }
  }

  private async applyOne(
    event: SubscriptionEvent,
    occurredAt: string,
    actor: string,
    manager: EntityManager,
  ): Promise<void> {
    if (event.type === 'SubscriptionPurchased') {
      const data = event.data;
      await manager.query(
        `INSERT INTO subscriptions (id, user_uuid, user_email, plan_id, plan_name, price_minor, currency, status, type,
           duration_in_month, is_recurrent, cancel_at_period_end, next_payment_date, login, start_date, end_date,
           created_at, created_by, updated_at, updated_by, list_price_minor, discount_percent, recurrence_deactivated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9, $10, false, NULL, $11, NULL, NULL, $12, $13, $12, $13,
           $14, $15, false)`,
        [
          data.subscriptionId,
          data.userUuid,
          data.userEmail,
          data.planId,
          data.planName,
          data.priceMinor,
          data.currency,
          data.type,
          data.durationInMonths,
          data.isRecurrent,
          data.login,
          data.purchasedAt,
          actor,
          data.listPriceMinor,
          data.discountPercent,
        ],
      );
      return;
    }
    const [assignments, values] = changesOf(event);
    await this.touch(event.data.subscriptionId, assignments, values, occurredAt, actor, manager);
  }

  /** Sets the columns an event changes, its author and instant, and the next payment date, in one statement. */
  private async touch(
    subscriptionId: string,
    assignments: string[],
    values: unknown[],
    occurredAt: string,
    actor: string,
    manager: EntityManager,
  ): Promise<void> {
    // $1–$3 are the id, the instant and the author; each `?` takes the next value in order.
    let parameter = 3;
    const changed = new Map(
      assignments.map((assignment) => {
        const [column, expression] = assignment.split(/ = (.*)/s);
        return [column, expression.replace('?', () => `$${(parameter += 1)}`)];
      }),
    );
    const after = (column: keyof typeof RULE_COLUMNS) =>
      changed.has(column) ? `(${changed.get(column)})::${RULE_COLUMNS[column]}` : column;
    // The event's own next payment date (a failed renewal's) enters through the rule, which sets the column.
    const sets = [...changed]
      .filter(([column]) => column !== 'next_payment_date')
      .map(([column, expression]) => `${column} = ${expression}`);
    sets.push('updated_at = $2', 'updated_by = $3', `next_payment_date = ${nextPaymentDate(after)}`);
    await manager.query(`UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $1`, [
      subscriptionId,
      occurredAt,
      actor,
      ...values,
    ]);
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM subscriptions`);
  }
}

/** The column assignments (`column = ?`) an event makes and their values, in order; none for some events. */
function changesOf(event: Exclude<SubscriptionEvent, { type: 'SubscriptionPurchased' }>): [string[], unknown[]] {
  switch (event.type) {
    case 'SubscriptionActivated':
      return [
        [
          `status = CASE WHEN recurrence_deactivated THEN 'UNSUBSCRIBED' ELSE 'ACTIVE' END`,
          'start_date = ?',
          'end_date = ?',
        ],
        [event.data.startDate, event.data.endDate],
      ];
    case 'SubscriptionRenewed':
      return [
        [
          'price_minor = ?',
          'discount_percent = ?',
          'end_date = ?',
          'cancel_at_period_end = false',
          `status = CASE WHEN status = 'GRACE' THEN 'ACTIVE' ELSE status END`,
          'grace_ends_at = NULL',
        ],
        [event.data.priceMinor, event.data.discountPercent, event.data.endDate],
      ];
    case 'SubscriptionExtended':
      return [
        ['end_date = ?', `status = CASE WHEN status = 'GRACE' THEN 'ACTIVE' ELSE status END`, 'grace_ends_at = NULL'],
        [event.data.endDate],
      ];
    case 'SubscriptionCancelled':
      return [['cancel_at_period_end = true'], []];
    case 'SubscriptionResumed':
      return [['cancel_at_period_end = false'], []];
    case 'SubscriptionRecurrenceDeactivated':
      return [
        [`recurrence_deactivated = true`, `status = CASE WHEN status = 'ACTIVE' THEN 'UNSUBSCRIBED' ELSE status END`],
        [],
      ];
    case 'SubscriptionEnded':
      return [['status = ?', 'grace_ends_at = NULL'], [event.data.status]];
    case 'SubscriptionLapsed':
      return [[`status = 'GRACE'`, 'grace_ends_at = ?'], [event.data.graceEndsAt]];
    case 'SubscriptionLoginChanged':
      return [['login = ?'], [event.data.login]];
    case 'SubscriptionProvisioningFailed':
      return [[`status = 'CANCELED'`], []];
    case 'SubscriptionRenewalFailed':
      return [['next_payment_date = ?'], [event.data.nextAttemptAt]];
    case 'SubscriptionPasswordChanged':
      return [[], []];
    case 'SubscriptionRenewalFundingChanged':
      return [['renewal_funding = ?'], [event.data.funding]];
    // Card renewal attempts are decided from the stream; the table only says since when one waits for an outcome, for
    // the sweep's janitor (docs/adr/0086-renewals-charged-to-the-saved-card.md).
    case 'SubscriptionCardRenewalStarted':
      return [['card_renewal_open_since = ?'], [event.data.startedAt]];
    case 'SubscriptionCardRenewalPending':
      return [[], []];
    case 'SubscriptionCardRenewalFailed':
    case 'SubscriptionCardRenewalSettled':
      return [['card_renewal_open_since = NULL'], []];
  }
}
