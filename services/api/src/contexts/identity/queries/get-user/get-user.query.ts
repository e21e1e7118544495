import { Query } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

export class GetUserQuery extends Query<User> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
  ) {
    super();
  }
}
