import type { Actor } from '../../../../platform/auth';

export class StartTwoFactorEnrolmentCommand {
  constructor(readonly actor: Actor) {}
}
