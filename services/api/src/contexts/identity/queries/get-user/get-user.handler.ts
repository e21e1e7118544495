import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, type User } from '@kupa/proto';
import { assertMaySee } from '../../application/user-access';
import { UserReader } from '../../projections/users/user-reader';
import { GetUserQuery } from './get-user.query';

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery, User> {
  constructor(private readonly reader: UserReader) {}

  async execute({ actor, userUuid }: GetUserQuery): Promise<User> {
    assertMaySee(actor, userUuid);
    // Staff see who referred the account; a customer reading their own record does not (ADR 0078).
    return this.reader.getUser(userUuid, { forStaff: isStaffRole(actor.role) });
  }
}
