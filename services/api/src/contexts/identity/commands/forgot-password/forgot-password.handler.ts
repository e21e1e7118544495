import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { IdentityMails, PASSWORD_RESET_TOKEN_TTL_MS } from '../../infrastructure/identity-mails';
import { OneTimeTokens } from '../../infrastructure/one-time-tokens';
import { UserReader } from '../../projections/users/user-reader';
import { ForgotPasswordCommand } from './forgot-password.command';

@CommandHandler(ForgotPasswordCommand)
export class ForgotPasswordHandler implements ICommandHandler<ForgotPasswordCommand, void> {
  constructor(
    private readonly reader: UserReader,
    private readonly tokens: OneTimeTokens,
    private readonly mails: IdentityMails,
    private readonly clock: Clock,
  ) {}

  /** Answers the same whether or not the address has an account, so the call enumerates nobody. */
  async execute({ request }: ForgotPasswordCommand): Promise<void> {
    const user = await this.reader.findByEmail(request.email);
    if (!user) return;
    const token = await this.tokens.issue(user.uuid, 'PASSWORD_RESET', PASSWORD_RESET_TOKEN_TTL_MS, this.clock.now());
    await this.mails.sendPasswordReset(
      { email: user.email, firstName: user.firstName, language: request.language ?? user.language },
      token,
    );
  }
}
