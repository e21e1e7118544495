import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { requestConfirmationMail } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ResendConfirmationCommand } from './resend-confirmation.command';

@CommandHandler(ResendConfirmationCommand)
export class ResendConfirmationHandler implements ICommandHandler<ResendConfirmationCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
  ) {}

  /**
   * Unknown, active and blocked addresses get the same silent 204 as a pending one, so the call enumerates nobody:
   * only the owner of a pending account, reading its mailbox, learns that a link went out. The mail itself is sent
   * by the identity mail processor once the request event is stored.
   */
  async execute({ request, context }: ResendConfirmationCommand): Promise<void> {
    const user = await this.reader.findByEmail(request.email);
    if (user?.status !== 'NON_VERIFIED') return;
    const language = request.language ?? user.language;
    await this.pipeline.run(
      userCommand(user.uuid, context, (state, { at }) => requestConfirmationMail({ language, at }, state)),
    );
  }
}
