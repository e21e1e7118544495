import { Injectable } from '@nestjs/common';
import { checkUuid, type Plan } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { PlanReferences } from '../../application/plan-references.port';
import { PLAN_COLUMNS, type PlanRow, toPlan } from './plan-view';

@Injectable()
export class PlanReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly references: PlanReferences,
  ) {}

  async find(planId: string): Promise<Plan | null> {
    const rows: PlanRow[] = await this.dataSource.query(`SELECT ${PLAN_COLUMNS} FROM payment_plans p WHERE p.id = $1`, [
      planId,
    ]);
    return rows[0] ? toPlan(rows[0]) : null;
  }

  /** The names of the packages among `planIds` that exist, in one read; other ids are left out. */
  async namesOf(planIds: readonly string[]): Promise<Map<string, string>> {
    // The activity log may hold any text as a target id; only a uuid can name a package.
    const ids = planIds.filter((planId) => checkUuid(planId) === null);
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; name: string }> = await this.dataSource.query(
      `SELECT id, name FROM payment_plans WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The package, or 404 `error.payment.plan.not.found`. */
  async get(planId: string): Promise<Plan> {
    const plan = await this.find(planId);
    if (!plan) throw new ApiError('error.payment.plan.not.found');
    return plan;
  }

  /**
   * The packages as staff read them in the search and a package's details (ADR 0078): each with how many
   * subscriptions name it. Commands answer the package alone, as they always have.
   */
  async withUsage(plans: readonly Plan[]): Promise<Plan[]> {
    const counts = await this.references.countsOf(plans.map((plan) => plan.id));
    return plans.map((plan) => ({ ...plan, subscriptionCount: counts.get(plan.id) ?? 0 }));
  }
}
