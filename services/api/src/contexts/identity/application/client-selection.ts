import { Injectable } from '@nestjs/common';
import { CUSTOMER_ROLES, type CustomerRole, type DateRange, type UserStatus } from '@kupa/proto';
import { UserSearch } from '../projections/users/user-search';

/** The staff clients list's filters (`ClientFilterDto`), as other contexts hand them over. */
export interface ClientFilter {
  keyWord?: string;
  statuses?: readonly UserStatus[];
  roles?: readonly CustomerRole[];
  registrationDate?: DateRange;
}

/** How many clients a filter matches, and their uuids (the first `limit`, or all). */
export interface ClientSelectionResult {
  total: number;
  userUuids: string[];
}

/**
 * The clients (customer roles only, never staff) that the staff clients list's filters match, for the use cases that
 * act on all of them at once: a broadcast freezes its recipients from here, a preview counts them.
 */
@Injectable()
export class ClientSelection {
  constructor(private readonly users: UserSearch) {}

  select(filter: ClientFilter, limit?: number): Promise<ClientSelectionResult> {
    const roles = filter.roles && filter.roles.length > 0 ? filter.roles : CUSTOMER_ROLES;
    return this.users.select({ ...filter, roles }, limit);
  }
}
