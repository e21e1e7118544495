import { Injectable } from '@nestjs/common';
import type { Plan } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { PLAN_COLUMNS, type PlanRow, toPlan } from './plan-view';

@Injectable()
export class PlanReader {
  constructor(private readonly dataSource: DataSource) {}

  async find(planId: string): Promise<Plan | null> {
    const rows: PlanRow[] = await this.dataSource.query(`SELECT ${PLAN_COLUMNS} FROM payment_plans p WHERE p.id = $1`, [
      planId,
    ]);
    return rows[0] ? toPlan(rows[0]) : null;
  }

  /** The package, or 404 `error.payment.plan.not.found`. */
  async get(planId: string): Promise<Plan> {
    const plan = await this.find(planId);
    if (!plan) throw new ApiError('error.payment.plan.not.found');
    return plan;
  }
}
