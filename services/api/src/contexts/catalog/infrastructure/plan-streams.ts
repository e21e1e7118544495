import { assert } from '../../../kernel';
import type { RequestContext } from '../../../platform/auth';
import { type CommandPlan, type CommandStamp, foldedStreamKind, type StreamRef } from '../../../platform/commands';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { planEvolution } from '../domain/plan.decider';
import { type PaymentPlanEvent, planStreamId } from '../domain/plan.events';
import type { PlanState } from '../domain/plan.state';

/**
 * Plan streams (`plan-{uuid}`) for the command pipeline: a package's history is short, so it is folded whole, and
 * read in the statement that locks it (every purchase reads its package; a repricing that appends to it is rare).
 */
export const planStreams = foldedStreamKind(planEvolution, (planId) => planStreamId(String(planId)), {
  readsEventsWithLocks: true,
});

type PlanStreamRefs = { plan: StreamRef<PlanState, PaymentPlanEvent> };

/**
 * The plan of a command on one package. `readFacts` reads what the decision needs from outside the stream (is the
 * package referenced, is the name taken) in the command's transaction once the stream is locked; `decide` is one
 * of the plan decider's functions over the folded state and those facts.
 */
export function planCommand<Facts>(
  planId: string,
  context: RequestContext,
  readFacts: (tx: StreamTransaction) => Promise<Facts>,
  decide: (state: PlanState, facts: Facts, stamp: CommandStamp) => PaymentPlanEvent[],
): CommandPlan<PlanStreamRefs, PaymentPlanEvent[]> {
  let facts: { value: Facts } | null = null;
  return {
    context,
    streams: { plan: planStreams.ref(planId) },
    prepare: async (tx) => {
      facts = { value: await readFacts(tx) };
    },
    decide: ({ plan }, stamp) => {
      assert(facts !== null, 'a plan command reads its facts before deciding');
      const events = decide(plan.state, facts.value, stamp);
      return { events: { plan: events }, result: events };
    },
  };
}
