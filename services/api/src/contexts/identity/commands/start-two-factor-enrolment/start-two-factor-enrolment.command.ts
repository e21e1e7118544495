import { Command } from '@nestjs/cqrs';
import type { TwoFactorEnrolment } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

export class StartTwoFactorEnrolmentCommand extends Command<TwoFactorEnrolment> {
  constructor(readonly actor: Actor) {
    super();
  }
}
