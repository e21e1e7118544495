import { Injectable } from '@nestjs/common';
import { LIMITS, type Page, type SortableResource, type User, type UserRole, type UserStatus } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { orderByFromSorts, type SortColumnSql, type SortDto, toPage } from '../../../../platform/http';
import { UserBalances } from '../../application/user-balances.port';
import { UserReader } from './user-reader';
import { toUserView, USER_COLUMNS, type UserRow } from './user-view';

/** What the users searches filter by; every field narrows, none widens. */
export interface UserSearchFilter {
  keyWord?: string;
  statuses?: readonly UserStatus[];
  roles?: readonly UserRole[];
  registrationDate?: { from?: string | null; to?: string | null };
  twoFactorEnabled?: boolean;
}

export interface UserSearchPaging {
  page?: number;
  size?: number;
  sorts?: SortDto[];
}

function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The WHERE clause of `filter`, its values added to `parameters`; empty when nothing narrows. */
function whereOf(filter: UserSearchFilter, parameters: SqlParameters): string {
  const conditions: string[] = [];
  const keyword = filter.keyWord?.trim();
  if (keyword) {
    const pattern = parameters.add(likePattern(keyword));
    conditions.push(
      `(u.email ILIKE ${pattern} OR u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern}` +
        ` OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern} OR u.profile_id LIKE ${pattern})`,
    );
  }
  if (filter.statuses && filter.statuses.length > 0)
    conditions.push(`u.status = ANY(${parameters.add(filter.statuses)})`);
  if (filter.roles && filter.roles.length > 0) conditions.push(`u.role = ANY(${parameters.add(filter.roles)})`);
  if (filter.registrationDate?.from)
    conditions.push(`u.created_at >= ${parameters.add(new Date(filter.registrationDate.from))}`);
  if (filter.registrationDate?.to)
    conditions.push(`u.created_at <= ${parameters.add(new Date(filter.registrationDate.to))}`);
  if (filter.twoFactorEnabled !== undefined)
    conditions.push(`u.two_factor_enabled = ${parameters.add(filter.twoFactorEnabled)}`);
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * The one search over the users read model that the clients list (`POST /users/search`) and the staff list
 * (`POST /users/staff/search`) share: the same keyword, filters and paging, each with its own sortable columns. A sort
 * by `balance` joins the relation the `UserBalances` port publishes, by an indexed uuid (ADR 0078).
 */
@Injectable()
export class UserSearch {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: UserReader,
    private readonly balances: UserBalances,
  ) {}

  async search<R extends SortableResource>(
    filter: UserSearchFilter,
    paging: UserSearchPaging,
    sortable: { resource: R; columns: SortColumnSql<R> },
  ): Promise<Page<User>> {
    const page = paging.page ?? LIMITS.pageDefault;
    const size = paging.size ?? LIMITS.pageSizeDefault;
    const parameters = new SqlParameters();
    const where = whereOf(filter, parameters);
    const orderBy = orderByFromSorts(
      paging.sorts,
      sortable.resource,
      sortable.columns,
      'u.created_at DESC, u.uuid ASC',
    );
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM users u ${where}`,
      parameters.values,
    );
    const sortsByBalance = (paging.sorts ?? []).some((sort) => sort.id === 'balance');
    const balanceJoin = sortsByBalance ? `LEFT JOIN ${this.balances.sortRelation} b ON b.user_uuid = u.uuid` : '';
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users u ${balanceJoin} ${where} ORDER BY ${orderBy} LIMIT ${parameters.add(size)} OFFSET ${parameters.add(page * size)}`,
      parameters.values,
    );
    return toPage(await this.reader.toUsers(rows.map(toUserView), { forStaff: true }), page, size, Number(total));
  }

  /**
   * How many accounts match `filter`, and the uuids of the first `limit` of them (all when no limit), oldest account
   * first with the uuid breaking ties, so a repeated read lists them in the same order.
   */
  async select(filter: UserSearchFilter, limit?: number): Promise<{ total: number; userUuids: string[] }> {
    const parameters = new SqlParameters();
    const where = whereOf(filter, parameters);
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM users u ${where}`,
      parameters.values,
    );
    const limitClause = limit === undefined ? '' : `LIMIT ${parameters.add(limit)}`;
    const rows: Array<{ uuid: string }> = await this.dataSource.query(
      `SELECT u.uuid FROM users u ${where} ORDER BY u.created_at ASC, u.uuid ASC ${limitClause}`,
      parameters.values,
    );
    return { total: Number(total), userUuids: rows.map((row) => row.uuid) };
  }
}
