import type { AuditLog, Page, Plan, PlanRequest } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { InlineProjectionRegistry } from '../../platform/projections';
import { ReadModelReplayCheck } from '../../platform/projections/read-model-replay-check';
import { adminToken } from '../../test-support/identity-fixtures';
import type { TestApp } from '../../test-support/test-app';

/** Helpers the catalog's API specs share. They go through HTTP like any client would. */

/** A valid package body with a name of its own, so that specs sharing an app never collide on names. */
export function planRequest(overrides: Partial<PlanRequest> = {}): PlanRequest {
  return {
    name: `Gold ${randomUUID().slice(0, 8)}`,
    durationInMonths: 3,
    price: 29.99,
    currency: 'USD',
    isRecurrent: true,
    description: 'Every channel in HD',
    features: ['HD', 'Two screens'],
    status: 'ACTIVE',
    ...overrides,
  };
}

export async function createPlan(testApp: TestApp, overrides: Partial<PlanRequest> = {}): Promise<Plan> {
  const response = await testApp.http
    .post('/api/payment-plans')
    .set('Authorization', `Bearer ${await adminToken(testApp)}`)
    .send(planRequest(overrides));
  if (response.status !== 201)
    throw new Error(`Package creation answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Plan;
}

/** The activity-log entries about one package, oldest first, as staff read them. */
export async function auditEntriesOf(testApp: TestApp, planId: string): Promise<AuditLog[]> {
  const response = await testApp.http
    .post('/api/audit-logs/search')
    .set('Authorization', `Bearer ${await adminToken(testApp)}`)
    .send({ targetAndParentIds: [planId], sorts: [{ id: 'createdAt', desc: false }] });
  if (response.status !== 200)
    throw new Error(`Activity-log search answered ${response.status}: ${JSON.stringify(response.body)}`);
  return (response.body as Page<AuditLog>).content;
}

/** The number of stored events: a command that decides nothing appends none. */
export async function eventCount(testApp: TestApp): Promise<number> {
  const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query('SELECT count(*) FROM events');
  return Number(count);
}

/** Replays every event into shadow copies of the checked read models and expects no row to differ. */
export async function expectReadModelsToEqualReplay(testApp: TestApp): Promise<void> {
  const check = new ReadModelReplayCheck(testApp.dataSource, testApp.app.get(InlineProjectionRegistry));
  const report = await check.run();
  expect(report.projections).toContain('payment-plans');
  expect(report.mismatches).toEqual([]);
}
