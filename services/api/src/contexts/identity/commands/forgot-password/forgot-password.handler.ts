import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { requestPasswordReset } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ForgotPasswordCommand } from './forgot-password.command';

@CommandHandler(ForgotPasswordCommand)
export class ForgotPasswordHandler implements ICommandHandler<ForgotPasswordCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
  ) {}

  /**
   * Answers the same whether or not the address has an account, so the call enumerates nobody. For an account, the
   * request becomes an event and the identity mail processor sends the link.
   */
  async execute({ request, context }: ForgotPasswordCommand): Promise<void> {
    const user = await this.reader.findByEmail(request.email);
    if (!user) return;
    const language = request.language ?? user.language;
    await this.pipeline.run(
      userCommand(user.uuid, context, (state, { at }) => requestPasswordReset({ language, at }, state)),
    );
  }
}
