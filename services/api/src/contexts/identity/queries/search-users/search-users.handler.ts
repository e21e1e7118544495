import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { LIMITS, type Page, type User } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { orderByFromSorts, type SortColumnSql, toPage } from '../../../../platform/http';
import { UserBalances } from '../../application/user-balances.port';
import { UserReader } from '../../projections/users/user-reader';
import { toUserView, USER_COLUMNS, type UserRow } from '../../projections/users/user-view';
import { SearchUsersQuery } from './search-users.query';
import { SqlParameters } from '../../../../platform/database/sql-parameters';

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

function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

@QueryHandler(SearchUsersQuery)
export class SearchUsersHandler implements IQueryHandler<SearchUsersQuery, Page<User>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: UserReader,
    private readonly balances: UserBalances,
  ) {}

  async execute({ request }: SearchUsersQuery): Promise<Page<User>> {
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const conditions: string[] = [];
    const parameters = new SqlParameters();
    const keyword = request.keyWord?.trim();
    if (keyword) {
      const pattern = parameters.add(likePattern(keyword));
      conditions.push(
        `(u.email ILIKE ${pattern} OR u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern}` +
          ` OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern} OR u.profile_id LIKE ${pattern})`,
      );
    }
    if (request.statuses && request.statuses.length > 0)
      conditions.push(`u.status = ANY(${parameters.add(request.statuses)})`);
    if (request.roles && request.roles.length > 0) conditions.push(`u.role = ANY(${parameters.add(request.roles)})`);
    if (request.registrationDate?.from)
      conditions.push(`u.created_at >= ${parameters.add(new Date(request.registrationDate.from))}`);
    if (request.registrationDate?.to)
      conditions.push(`u.created_at <= ${parameters.add(new Date(request.registrationDate.to))}`);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const orderBy = orderByFromSorts(request.sorts, 'users', SORT_COLUMNS, 'u.created_at DESC, u.uuid ASC');
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM users u ${where}`,
      parameters.values,
    );
    const sortsByBalance = (request.sorts ?? []).some((sort) => sort.id === 'balance');
    const balanceJoin = sortsByBalance ? `LEFT JOIN ${this.balances.sortRelation} b ON b.user_uuid = u.uuid` : '';
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users u ${balanceJoin} ${where} ORDER BY ${orderBy} LIMIT ${parameters.add(size)} OFFSET ${parameters.add(page * size)}`,
      parameters.values,
    );
    return toPage(await this.reader.toUsers(rows.map(toUserView)), page, size, Number(total));
  }
}
