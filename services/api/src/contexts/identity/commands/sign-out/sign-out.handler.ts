import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { SignOutCommand } from './sign-out.command';

@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand, void> {
  constructor(
    private readonly refreshTokens: RefreshTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ refreshToken }: SignOutCommand): Promise<void> {
    if (refreshToken) await this.refreshTokens.revokeFamilyOf(refreshToken, this.clock.now());
  }
}
