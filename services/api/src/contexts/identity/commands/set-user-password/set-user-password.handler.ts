import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { StaffPasswords } from '../../application/staff-passwords';
import { SetUserPasswordCommand } from './set-user-password.command';

@CommandHandler(SetUserPasswordCommand)
export class SetUserPasswordHandler implements ICommandHandler<SetUserPasswordCommand, void> {
  constructor(private readonly passwords: StaffPasswords) {}

  async execute({ actor, userUuid, password, context }: SetUserPasswordCommand): Promise<void> {
    await this.passwords.set(userUuid, password, actor, context);
  }
}
