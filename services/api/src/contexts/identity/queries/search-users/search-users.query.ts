import type { SearchUsersRequestDto } from './search-users.request.dto';

export class SearchUsersQuery {
  constructor(readonly request: SearchUsersRequestDto) {}
}
