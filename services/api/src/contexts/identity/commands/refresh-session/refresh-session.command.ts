import { Command } from '@nestjs/cqrs';
import type { IssuedRefreshToken } from '../../infrastructure/sessions/refresh-tokens';

export interface RefreshResult {
  accessToken: string;
  /** The successor token; none when a concurrent refresh of the same session already received it. */
  refresh: IssuedRefreshToken | null;
}

export class RefreshSessionCommand extends Command<RefreshResult> {
  constructor(readonly refreshToken: string | null) {
    super();
  }
}
