import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { Sessions } from '../../infrastructure/sessions/sessions';
import { UserReader } from '../../projections/users/user-reader';
import { RefreshSessionCommand, type RefreshResult } from './refresh-session.command';

@CommandHandler(RefreshSessionCommand)
export class RefreshSessionHandler implements ICommandHandler<RefreshSessionCommand, RefreshResult> {
  constructor(
    private readonly refreshTokens: RefreshTokens,
    private readonly reader: UserReader,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
  ) {}

  async execute({ refreshToken }: RefreshSessionCommand): Promise<RefreshResult> {
    if (!refreshToken) throw new ApiError('error.session.expired');
    const now = this.clock.now();
    const { userUuid, session, issued } = await this.refreshTokens.rotate(refreshToken, now);
    const user = await this.reader.findByUuid(userUuid);
    if (!user) throw new ApiError('error.session.expired');
    if (user.status === 'BLOCKED') {
      await this.refreshTokens.revokeAllOf(userUuid, now);
      throw new ApiError('error.account.blocked');
    }
    if (user.status !== 'ACTIVE') throw new ApiError('error.user.not.active');
    return { accessToken: this.sessions.accessToken(user, session), refresh: issued };
  }
}
