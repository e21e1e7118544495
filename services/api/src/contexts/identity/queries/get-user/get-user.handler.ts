import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { ApiError } from '../../../../platform/http';
import { assertMaySee } from '../../infrastructure/user-access';
import { UserReader } from '../../projections/users/user-reader';
import { GetUserQuery } from './get-user.query';

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery, User> {
  constructor(private readonly reader: UserReader) {}

  async execute({ actor, userUuid }: GetUserQuery): Promise<User> {
    assertMaySee(actor, userUuid);
    const view = await this.reader.findByUuid(userUuid);
    if (!view) throw new ApiError('error.user.not.found');
    return this.reader.toUser(view);
  }
}
