import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqlParameters } from '../../../platform/database/sql-parameters';
import {
  type SubscriptionFilter,
  subscriptionFilterConditions,
} from '../queries/search-subscriptions/subscription-filter';

/** How many subscriptions a filter matches, and the first `limit` of them with their client's e-mail address. */
export interface SubscriptionSelectionResult {
  total: number;
  subscriptions: Array<{ id: string; userEmail: string }>;
}

/**
 * The subscriptions the staff subscriptions list's filters match (the list's own conditions), in the list's default
 * order, for the bulk operation that adds days to all of them: counted for its preview, frozen at its start.
 */
@Injectable()
export class SubscriptionSelection {
  constructor(private readonly dataSource: DataSource) {}

  async select(filter: SubscriptionFilter, limit: number): Promise<SubscriptionSelectionResult> {
    const parameters = new SqlParameters();
    const conditions = subscriptionFilterConditions(filter, parameters);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM subscriptions s ${where}`,
      parameters.values,
    );
    const rows: Array<{ id: string; user_email: string }> = await this.dataSource.query(
      `SELECT s.id::text AS id, s.user_email FROM subscriptions s ${where}
        ORDER BY s.created_at DESC, s.id ASC LIMIT ${parameters.add(limit)}`,
      parameters.values,
    );
    return { total: Number(total), subscriptions: rows.map((row) => ({ id: row.id, userEmail: row.user_email })) };
  }
}
