import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { recordNotifications } from '../../../notifications';
import { rejectClaim } from '../../domain/deposit-claims.decider';
import { depositClaimStreams } from '../../infrastructure/ledger-streams';
import { DepositClaimsReader } from '../../projections/deposit-claims/deposit-claims.reader';
import { RejectDepositClaimCommand } from './reject-deposit-claim.command';

/**
 * Rejects an open claim on its client's stream and, in the same transaction, keeps the portal notice
 * `deposit-claim-rejected` for the client (once per claim: its occasion key is the claim's).
 */
@CommandHandler(RejectDepositClaimCommand)
export class RejectDepositClaimHandler implements ICommandHandler<RejectDepositClaimCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly claims: DepositClaimsReader,
  ) {}

  async execute({ claimId, reasonText, context }: RejectDepositClaimCommand): Promise<void> {
    const owner = await this.claims.ownerOf(claimId);
    if (!owner) throw new ApiError('error.deposit.claim.not.found');
    await this.pipeline.run({
      context,
      streams: { claims: depositClaimStreams.ref(owner.userUuid) },
      decide: (loaded, { at }) => ({
        events: { claims: rejectClaim({ claimId, userUuid: owner.userUuid, reasonText, at }, loaded.claims.state) },
        result: undefined,
      }),
      alongside: async (tx, _decision, { at }) => {
        await recordNotifications(
          tx.manager,
          [
            {
              occasionKey: `deposit-claim-rejected:${claimId}`,
              userUuid: owner.userUuid,
              kind: 'deposit-claim-rejected',
              params: { amountMinor: owner.amountMinor, reason: reasonText, link: '/payments/deposit' },
            },
          ],
          at,
        );
      },
    });
  }
}
