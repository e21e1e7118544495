import { Command } from '@nestjs/cqrs';
import type { SignInResponse } from '@kupa/proto';
import type { IssuedRefreshToken } from '../../infrastructure/sessions/refresh-tokens';
import type { SignInOrigin } from '../../infrastructure/sessions/user-sessions';
import type { SignInRequestDto } from './sign-in.request.dto';

export interface SignInResult {
  response: SignInResponse;
  refresh: IssuedRefreshToken;
}

export class SignInCommand extends Command<SignInResult> {
  constructor(
    readonly request: SignInRequestDto,
    /** Where the sign-in comes from, for the sessions list and the new-device notice (ADR 0099). */
    readonly origin: SignInOrigin | null = null,
  ) {
    super();
  }
}
