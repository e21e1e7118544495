import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DEFAULT_LANGUAGE, type User } from '@kupa/proto';
import { AccountCreation } from '../../application/account-creation';
import { UserReader } from '../../projections/users/user-reader';
import { CreateUserCommand } from './create-user.command';

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand, User> {
  constructor(
    private readonly accounts: AccountCreation,
    private readonly reader: UserReader,
  ) {}

  async execute({ request, context }: CreateUserCommand): Promise<User> {
    const { userUuid } = await this.accounts.create(
      {
        email: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        password: request.password,
        language: request.language ?? DEFAULT_LANGUAGE,
      },
      { kind: 'staff-created', role: request.role },
      context,
    );
    const view = await this.reader.findByUuid(userUuid);
    if (!view) throw new Error(`User ${userUuid} missing right after its creation`);
    return this.reader.toUser(view);
  }
}
