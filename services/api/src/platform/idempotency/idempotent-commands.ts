import { Injectable } from '@nestjs/common';
import { CommandBatches, type CommandPlan, CommandPipeline } from '../commands';
import { IdempotencyKeys, type IdempotentRequest, IdempotentReplay } from './idempotency-keys';

/**
 * A money-moving command (a payment, a transfer, a subscription bought with the balance) through the one pipeline,
 * with its `Idempotency-Key` written with its answer beside the events (docs/adr/0129). A concurrent repeat finds
 * the key taken when it comes to write it, or when its own decision refused, waits for the first to commit and
 * answers the first response, rolling its own work back. Callers check `IdempotencyKeys.replayIfKnown` before their
 * own lookups, so that a sequential repeat answers the first response even when the world has changed since.
 */
@Injectable()
export class IdempotentCommands {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly keys: IdempotencyKeys,
    private readonly batches: CommandBatches,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the plan's stream record keeps its own types
  async run<Refs extends Record<string, any>, Result>(
    idempotency: IdempotentRequest | null,
    plan: CommandPlan<Refs, Result>,
  ): Promise<Result> {
    const alone = () => this.runAlone(idempotency, plan);
    // A groupable plan's only side work is its key, which a batch claims for all of its commands at once.
    if (!this.batches.enabled || !plan.groupable || plan.prepare || plan.alongside || plan.refused) return alone();
    try {
      return await this.batches.run({ plan, key: idempotency, keys: this.keys, alone });
    } catch (error) {
      if (error instanceof IdempotentReplay) return error.response as Result;
      throw error;
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the plan's stream record keeps its own types
  private async runAlone<Refs extends Record<string, any>, Result>(
    idempotency: IdempotentRequest | null,
    plan: CommandPlan<Refs, Result>,
  ): Promise<Result> {
    try {
      const { result } = await this.pipeline.run({
        ...plan,
        refused: async (tx, error, stamp) => {
          await this.keys.awaitHolder(tx.manager, idempotency, stamp.at);
          await plan.refused?.(tx, error, stamp);
        },
        alongside: async (tx, decision, stamp) => {
          // The key first: a repeat stops at it before writing its own side rows.
          await this.keys.store(tx.manager, idempotency, decision.result, stamp.at);
          await plan.alongside?.(tx, decision, stamp);
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
