import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type Page, STAFF_ROLES, type User } from '@kupa/proto';
import type { SortColumnSql } from '../../../../platform/http';
import { UserSearch } from '../../projections/users/user-search';
import { SearchStaffQuery } from './search-staff.query';

/** The SQL of each column proto's `SORTABLE_COLUMNS.staff` lists; staff hold no balance worth sorting by. */
const SORT_COLUMNS: SortColumnSql<'staff'> = Object.freeze({
  userCreatedAt: 'u.created_at',
  email: 'lower(u.email)',
  fullName: "lower(u.first_name || ' ' || u.last_name)",
  status: 'u.status',
  role: 'u.role',
  twoFactorEnabled: 'u.two_factor_enabled',
});

/** Staff accounts only, whatever the request asks: with no role chosen, both staff roles (ADR 0078). */
@QueryHandler(SearchStaffQuery)
export class SearchStaffHandler implements IQueryHandler<SearchStaffQuery, Page<User>> {
  constructor(private readonly users: UserSearch) {}

  execute({ request }: SearchStaffQuery): Promise<Page<User>> {
    const roles = request.roles && request.roles.length > 0 ? request.roles : STAFF_ROLES;
    return this.users.search({ ...request, roles }, request, { resource: 'staff', columns: SORT_COLUMNS });
  }
}
