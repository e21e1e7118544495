import { Injectable } from '@nestjs/common';
import { type CommandPlan, CommandPipeline } from '../commands';
import { IdempotencyKeys, type IdempotentRequest, IdempotentReplay } from './idempotency-keys';

/**
 * A money-moving command (a payment, a transfer, a subscription bought with the balance) through the one pipeline,
 * with its `Idempotency-Key` claimed under the stream locks before deciding and its answer stored beside the events.
 * A repeat finds the claimed key and answers the first response without writing anything. Callers check
 * `IdempotencyKeys.replayIfKnown` before their own lookups, so that a sequential repeat answers the first response
 * even when the world has changed since.
 */
@Injectable()
export class IdempotentCommands {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly keys: IdempotencyKeys,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the plan's stream record keeps its own types
  async run<Refs extends Record<string, any>, Result>(
    idempotency: IdempotentRequest | null,
    plan: CommandPlan<Refs, Result>,
  ): Promise<Result> {
    try {
      const { result } = await this.pipeline.run({
        ...plan,
        prepare: async (tx, stamp) => {
          await this.keys.claim(tx.manager, idempotency, stamp.at);
          await plan.prepare?.(tx, stamp);
        },
        alongside: async (tx, decision, stamp) => {
          await plan.alongside?.(tx, decision, stamp);
          await this.keys.complete(tx.manager, idempotency, decision.result);
        },
      });
      return result;
    } catch (error) {
      // The stored answer is the one this route gave the first time, so it has the route's result type.
      if (error instanceof IdempotentReplay) return error.response as Result;
      throw error;
    }
  }
}
