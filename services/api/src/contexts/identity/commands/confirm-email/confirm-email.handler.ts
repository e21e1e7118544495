import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ConfirmationResponse } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { confirmEmail } from '../../domain/user.decider';
import { OneTimeTokens } from '../../infrastructure/persistence/one-time-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ConfirmEmailCommand } from './confirm-email.command';

@CommandHandler(ConfirmEmailCommand)
export class ConfirmEmailHandler implements ICommandHandler<ConfirmEmailCommand, ConfirmationResponse> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly tokens: OneTimeTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ token, context }: ConfirmEmailCommand): Promise<ConfirmationResponse> {
    const userUuid = await this.tokens.peek(token, 'EMAIL_CONFIRMATION', this.clock.now());
    if (!userUuid) throw new ApiError('error.confirmation.token.invalid');
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => confirmEmail({ at }, user),
        async (tx, _events, { at }) => {
          // Used up in the same transaction as the confirmation, so two clicks confirm once and the second is refused.
          if (!(await this.tokens.consume(tx.manager, token, 'EMAIL_CONFIRMATION', userUuid, at)))
            throw new ApiError('error.confirmation.token.invalid');
        },
      ),
    );
    return { status: 'ACTIVE' };
  }
}
