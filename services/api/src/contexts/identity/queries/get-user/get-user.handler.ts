import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, type User } from '@kupa/proto';
import { assertMaySee } from '../../application/user-access';
import { UserTelegramLinks } from '../../application/user-telegram-links.port';
import { UserReader } from '../../projections/users/user-reader';
import { GetUserQuery } from './get-user.query';

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery, User> {
  constructor(
    private readonly reader: UserReader,
    private readonly telegramLinks: UserTelegramLinks,
  ) {}

  async execute({ actor, userUuid }: GetUserQuery): Promise<User> {
    assertMaySee(actor, userUuid);
    const forStaff = isStaffRole(actor.role);
    // Staff see who referred the account (ADR 0078) and whether its Telegram is linked (ADR 0107); a customer reading
    // their own record does not: their profile has its own Telegram card.
    const user = await this.reader.getUser(userUuid, { forStaff });
    return forStaff ? { ...user, telegram: await this.telegramLinks.telegramOf(userUuid) } : user;
  }
}
