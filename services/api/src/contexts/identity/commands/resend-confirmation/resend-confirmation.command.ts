import type { EmailRequestDto } from './resend-confirmation.request.dto';

export class ResendConfirmationCommand {
  constructor(readonly request: EmailRequestDto) {}
}
