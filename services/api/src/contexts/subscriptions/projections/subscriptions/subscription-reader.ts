import { Injectable } from '@nestjs/common';
import { isStaffRole, type Subscription } from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../../../../platform/auth';
import { ApiError } from '../../../../platform/http';
import { SUBSCRIPTION_COLUMNS, type SubscriptionRow, toSubscription } from './subscription-view';

/** Reads of the subscriptions read model. */
@Injectable()
export class SubscriptionReader {
  constructor(private readonly dataSource: DataSource) {}

  async find(subscriptionId: string, manager: EntityManager = this.dataSource.manager): Promise<Subscription | null> {
    const rows: SubscriptionRow[] = await manager.query(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions s WHERE s.id = $1`,
      [subscriptionId],
    );
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  /**
   * The subscription as `actor` may see it: staff see every subscription, a client or an ambassador only their own.
   * Another's, like a missing one, is 404 `error.subscription.not.found`: nobody learns that it exists.
   */
  async visibleTo(actor: Actor, subscriptionId: string): Promise<Subscription> {
    const subscription = await this.find(subscriptionId);
    if (!subscription || (!isStaffRole(actor.role) && subscription.userUuid !== actor.userUuid))
      throw new ApiError('error.subscription.not.found');
    return subscription;
  }

  /**
   * The caller's subscriptions on one package that have not ended, for the deactivation of their renewals; not those
   * in their grace window, which are renewed or left to end (ADR 0081).
   */
  async runningOnPlan(userUuid: string, planId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM subscriptions
        WHERE user_uuid = $1 AND plan_id = $2 AND status NOT IN ('EXPIRED', 'CANCELED', 'GRACE')
        ORDER BY created_at, id`,
      [userUuid, planId],
    );
    return rows.map((row) => row.id);
  }

  /** The owner's subscriptions that have not ended and whose renewal uses the saved card (docs/adr/0085-saved-cards.md). */
  async fundedByCard(userUuid: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM subscriptions WHERE user_uuid = $1 AND renewal_funding <> 'BALANCE'
          AND status NOT IN ('EXPIRED', 'CANCELED') ORDER BY created_at, id`,
      [userUuid],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Whether a subscription that has not ended holds the login, without regard to case: the rule the unique index
   * `subscriptions_login_held` enforces on every append, asked early where a refusal must come before anything else.
   */
  async isLoginHeld(login: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM subscriptions WHERE lower(login) = lower($1) AND status NOT IN ('EXPIRED', 'CANCELED') LIMIT 1`,
      [login],
    );
    return rows.length > 0;
  }

  /**
   * The subscriptions that hold `login` now, whatever its case: those not EXPIRED or CANCELED (the rule of the unique
   * index `subscriptions_login_held`). Read under the login's reservation lock, it is what the reservation decides on.
   */
  async liveHoldersOf(login: string, manager: EntityManager): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM subscriptions WHERE lower(login) = lower($1) AND status NOT IN ('EXPIRED', 'CANCELED') ORDER BY id`,
      [login],
    );
    return rows.map((row) => row.id);
  }

  /** How many of `userUuids` hold an ACTIVE subscription (each user counted once). */
  async countActiveHolders(userUuids: readonly string[]): Promise<number> {
    if (userUuids.length === 0) return 0;
    const [{ count }]: Array<{ count: string }> = await this.dataSource.query(
      `SELECT count(DISTINCT user_uuid) AS count FROM subscriptions WHERE status = 'ACTIVE' AND user_uuid = ANY($1::uuid[])`,
      [userUuids],
    );
    return Number(count);
  }

  /** Whether any subscription names the package, asked with the caller's transaction (the catalog's port). */
  async isPlanReferenced(planId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM subscriptions WHERE plan_id = $1 LIMIT 1`, [planId]);
    return rows.length > 0;
  }

  /** How many subscriptions name each of `planIds` (by the `subscriptions_plan` index); unnamed plans are absent. */
  async countsByPlan(planIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    if (planIds.length === 0) return new Map();
    const rows: Array<{ plan_id: string; count: string }> = await this.dataSource.query(
      `SELECT plan_id, count(*) AS count FROM subscriptions WHERE plan_id = ANY($1::uuid[]) GROUP BY plan_id`,
      [planIds],
    );
    return new Map(rows.map((row) => [row.plan_id, Number(row.count)]));
  }
}
