import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { TwoFactorStepUp } from '../../application/two-factor-step-up';
import { requestEmailChange } from '../../domain/user.decider';
import { CredentialsRepository } from '../../infrastructure/persistence/credentials.repository';
import { PasswordHasher } from '../../infrastructure/passwords/password-hasher';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ChangeEmailCommand } from './change-email.command';

/**
 * Asks to move the signed-in account to another address (docs/adr/0100-change-of-e-mail.md). Nothing about the account
 * changes here: the event has the identity mails processor send a single-use link to the new address and a notice to
 * the current one.
 */
@CommandHandler(ChangeEmailCommand)
export class ChangeEmailHandler implements ICommandHandler<ChangeEmailCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly stepUp: TwoFactorStepUp,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, request, context }: ChangeEmailCommand): Promise<void> {
    const currentHash = await this.credentials.findHash(actor.userUuid);
    if (!currentHash || !(await this.hasher.verify(currentHash, request.currentPassword)))
      throw new ApiError('error.password.current.incorrect');
    // After the password, as for the password change; before the address is looked up, so that whether another
    // account holds an address is told only to someone who also holds the second factor.
    await this.stepUp.confirm(actor.userUuid, request.otpCode, this.clock.now());
    const holder = await this.users.findByEmail(request.newEmail);
    const addressTaken = holder !== null && holder.uuid !== actor.userUuid;
    await this.pipeline.run(
      userCommand(actor.userUuid, context, (user, { at }) =>
        requestEmailChange({ newEmail: request.newEmail, addressTaken, language: request.language, at }, user),
      ),
    );
  }
}
