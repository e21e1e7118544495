import type { SignInRequestDto } from './sign-in.request.dto';

export class SignInCommand {
  constructor(readonly request: SignInRequestDto) {}
}
