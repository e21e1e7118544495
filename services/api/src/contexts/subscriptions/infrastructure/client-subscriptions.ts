import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BOT_SUBSCRIPTION_STATUSES,
  type BotSubscription,
  type BotSubscriptions,
  ClientSubscriptions,
} from '../../notifications';

interface CurrentRow {
  plan_id: string | null;
  plan_name: string | null;
  status: BotSubscription['status'];
  end_date: Date | null;
  grace_ends_at: Date | null;
  login: string;
  total: string;
}

/**
 * The notifications' `ClientSubscriptions` port over the subscriptions read model (the bot's `/subscriptions`,
 * docs/adr/0103-telegram-channel.md): a client's running and paused subscriptions, the soonest to end first. It
 * selects the columns the bot may tell and no other: the streaming password lives sealed in another table
 * (`SubscriptionSecrets`) that this never reads. Bound in the subscriptions module (ADR 0013).
 */
@Injectable()
export class CurrentClientSubscriptions extends ClientSubscriptions {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async currentOf(userUuid: string, limit: number): Promise<BotSubscriptions> {
    const rows: CurrentRow[] = await this.dataSource.query(
      `SELECT plan_id, plan_name, status, end_date, grace_ends_at, login, count(*) OVER ()::text AS total
         FROM subscriptions
        WHERE user_uuid = $1 AND status = ANY($2::text[])
        ORDER BY end_date ASC NULLS LAST, created_at, id
        LIMIT $3`,
      [userUuid, [...BOT_SUBSCRIPTION_STATUSES], limit],
    );
    return {
      total: rows[0] ? Number(rows[0].total) : 0,
      subscriptions: rows.map((row) => ({
        planName: row.plan_id === null ? null : (row.plan_name ?? ''),
        status: row.status,
        endDate: row.end_date?.toISOString() ?? null,
        graceEndsAt: row.grace_ends_at?.toISOString() ?? null,
        login: row.login,
      })),
    };
  }
}
