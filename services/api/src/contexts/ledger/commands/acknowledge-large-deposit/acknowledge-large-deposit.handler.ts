import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { depositAttentionStreamId } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { CommandPipeline, foldedStreamKind } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import {
  acknowledgeLargeDeposit,
  depositAttentionEvolution,
  type DepositFacts,
} from '../../domain/large-deposit-attention.decider';
import { AcknowledgeLargeDepositCommand } from './acknowledge-large-deposit.command';

const DEPOSIT_ATTENTION_STREAMS = foldedStreamKind(depositAttentionEvolution, (id) =>
  depositAttentionStreamId(Number(id)),
);

/**
 * Marks a large deposit seen: `LargeDepositAcknowledged` on its attention stream, and its row in
 * `large_deposit_acknowledgements` (which the dashboard's queue leaves out) in the same transaction.
 */
@CommandHandler(AcknowledgeLargeDepositCommand)
export class AcknowledgeLargeDepositHandler implements ICommandHandler<AcknowledgeLargeDepositCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ paymentId, context }: AcknowledgeLargeDepositCommand): Promise<void> {
    assert(context.actor, 'a deposit is marked seen by a signed-in staff member');
    const actorId = context.actor.userUuid;
    const rows: Array<{
      user_uuid: string;
      type: string;
      status: string;
      correction: boolean;
      amount_minor: string;
    }> = await this.dataSource.query(
      'SELECT user_uuid, type, status, correction, amount_minor::text FROM payments WHERE payment_id = $1',
      [paymentId],
    );
    const row = rows[0];
    if (!row) throw new ApiError('error.payment.not.found');
    const deposit: DepositFacts = {
      paymentId,
      userUuid: row.user_uuid,
      type: row.type,
      status: row.status,
      correction: row.correction,
      amountMinor: Number(row.amount_minor),
    };
    await this.pipeline.run({
      context,
      streams: { attention: DEPOSIT_ATTENTION_STREAMS.ref(paymentId) },
      decide: (loaded, { at }) => ({
        events: {
          attention: acknowledgeLargeDeposit(
            { deposit, largeDepositMinMinor: this.config.largeDepositMinMinor, actorId, at },
            loaded.attention.state,
          ),
        },
        result: undefined,
      }),
      alongside: async (tx, decision, { at }) => {
        if ((decision.events.attention ?? []).length === 0) return;
        await tx.manager.query(
          `INSERT INTO large_deposit_acknowledgements (payment_id, acknowledged_by, acknowledged_at)
           VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [paymentId, actorId, at],
        );
      },
    });
  }
}
