import type { EmailRequestDto } from '../resend-confirmation/resend-confirmation.request.dto';

export class ForgotPasswordCommand {
  constructor(readonly request: EmailRequestDto) {}
}
