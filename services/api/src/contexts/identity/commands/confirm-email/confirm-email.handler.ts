import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ConfirmationResponse } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { OneTimeTokens } from '../../infrastructure/one-time-tokens';
import { UserStreams } from '../../infrastructure/user-streams';
import { ConfirmEmailCommand } from './confirm-email.command';

@CommandHandler(ConfirmEmailCommand)
export class ConfirmEmailHandler implements ICommandHandler<ConfirmEmailCommand, ConfirmationResponse> {
  constructor(
    private readonly tokens: OneTimeTokens,
    private readonly streams: UserStreams,
    private readonly clock: Clock,
  ) {}

  async execute({ token, context }: ConfirmEmailCommand): Promise<ConfirmationResponse> {
    const now = this.clock.now();
    const userUuid = await this.tokens.peek(token, 'EMAIL_CONFIRMATION', now);
    if (!userUuid) throw new ApiError('error.confirmation.token.invalid');
    await this.streams.execute(userUuid, { type: 'ConfirmEmail', at: now }, context, now, async (tx) => {
      // Used up in the same transaction as the confirmation, so two clicks confirm once and the second is refused.
      if (!(await this.tokens.consume(tx.manager, token, 'EMAIL_CONFIRMATION', userUuid, now)))
        throw new ApiError('error.confirmation.token.invalid');
    });
    return { status: 'ACTIVE' };
  }
}
