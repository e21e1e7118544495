import { Query } from '@nestjs/cqrs';
import type { Page, User } from '@kupa/proto';
import type { SearchUsersRequestDto } from './search-users.request.dto';

export class SearchUsersQuery extends Query<Page<User>> {
  constructor(readonly request: SearchUsersRequestDto) {
    super();
  }
}
