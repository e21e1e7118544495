import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page, User } from '@kupa/proto';
import type { SortColumnSql } from '../../../../platform/http';
import { UserSearch } from '../../projections/users/user-search';
import { SearchUsersQuery } from './search-users.query';

/**
 * The SQL of each column proto's `SORTABLE_COLUMNS.users` lists (nothing else reaches ORDER BY). The balance is the
 * ledger's: `b` is the relation the `UserBalances` port publishes, joined only when a sort asks for it, and a user the
 * ledger has never booked for has none of its rows and a zero balance.
 */
const SORT_COLUMNS: SortColumnSql<'users'> = Object.freeze({
  userCreatedAt: 'u.created_at',
  email: 'lower(u.email)',
  fullName: "lower(u.first_name || ' ' || u.last_name)",
  firstName: 'lower(u.first_name)',
  lastName: 'lower(u.last_name)',
  status: 'u.status',
  role: 'u.role',
  balance: 'coalesce(b.balance_minor, 0)',
  profileId: 'u.profile_id',
});

@QueryHandler(SearchUsersQuery)
export class SearchUsersHandler implements IQueryHandler<SearchUsersQuery, Page<User>> {
  constructor(private readonly users: UserSearch) {}

  execute({ request }: SearchUsersQuery): Promise<Page<User>> {
    return this.users.search(request, request, { resource: 'users', columns: SORT_COLUMNS });
  }
}
