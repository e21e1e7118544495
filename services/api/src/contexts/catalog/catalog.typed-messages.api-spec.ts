import { Command, CommandBus, type ICommandHandler, type IQueryHandler, QueryBus } from '@nestjs/cqrs';
import type { Plan, User } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { Actor, RequestContext } from '../../platform/auth';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { createPlan } from './catalog.fixtures';
import { DeletePlanCommand } from './commands/delete-plan/delete-plan.command';
import { UpdatePlanCommand } from './commands/update-plan/update-plan.command';
import { GetPlanQuery } from './queries/get-plan/get-plan.query';

/**
 * Commands and queries carry their result type (`Command<Result>`, `Query<Result>`, ADR 0072), so the buses answer
 * it and tsc refuses a controller or a handler that declares another. The `@ts-expect-error` lines below are the
 * proof: `npm run typecheck` fails if any of them stops being an error. They are compiled, never run.
 */
export function declarationsTscRefuses(commands: CommandBus, queries: QueryBus, actor: Actor): unknown[] {
  const context: RequestContext = { actor, ip: null, correlationId: 'a-correlation-id' };
  const plan: Promise<Plan> = queries.execute(new GetPlanQuery(actor, 'a-plan-id'));
  // @ts-expect-error -- a controller that declares a User for a query that answers a Plan
  const user: Promise<User> = queries.execute(new GetPlanQuery(actor, 'a-plan-id'));
  const nothing: Promise<void> = commands.execute(new DeletePlanCommand('a-plan-id', context));
  // @ts-expect-error -- a controller that promises a Plan from a command that answers nothing
  const deleted: Promise<Plan> = commands.execute(new DeletePlanCommand('a-plan-id', context));

  // @ts-expect-error -- a handler that answers something other than its command's declared result
  const wrongHandler: ICommandHandler<UpdatePlanCommand> = { execute: async () => 'not a plan' };
  // @ts-expect-error -- a query handler that answers a list for a query declared to answer one plan
  const wrongQueryHandler: IQueryHandler<GetPlanQuery> = { execute: async (): Promise<Plan[]> => [] };

  class Doubled extends Command<number> {
    constructor(readonly value: number) {
      super();
    }
  }
  // @ts-expect-error -- a handler of a `Command<number>` that answers a string
  const wrongLocalHandler: ICommandHandler<Doubled> = { execute: async ({ value }: Doubled) => `${value * 2}` };

  return [plan, user, nothing, deleted, wrongHandler, wrongQueryHandler, wrongLocalHandler];
}

describe('Typed commands and queries on the real buses', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('routes a Query<Plan> subclass to its handler, which answers the plan', async () => {
    const created = await createPlan(testApp);
    const staff: Actor = { userUuid: randomUUID(), email: 'staff@kupa.test', role: 'ADMIN', name: 'Staff' };
    const plan: Plan = await testApp.app.get(QueryBus).execute(new GetPlanQuery(staff, created.id));
    // A staff read carries how many subscriptions use the package (ADR 0078).
    expect(plan).toEqual({ ...created, subscriptionCount: 0 });
  });
});
