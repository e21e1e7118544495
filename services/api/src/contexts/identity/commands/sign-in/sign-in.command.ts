import { Command } from '@nestjs/cqrs';
import type { SignInResponse } from '@kupa/proto';
import type { IssuedRefreshToken } from '../../infrastructure/sessions/refresh-tokens';
import type { SignInRequestDto } from './sign-in.request.dto';

export interface SignInResult {
  response: SignInResponse;
  refresh: IssuedRefreshToken;
}

export class SignInCommand extends Command<SignInResult> {
  constructor(readonly request: SignInRequestDto) {
    super();
  }
}
