/**
 * The columns each search endpoint sorts by (`sorts[].id` of a `POST …/search` body). The API maps exactly these ids
 * to SQL and answers any other id with a 400; the UIs offer only these. One list per resource, so a column added
 * here is sortable everywhere, and one removed stops being offered before the API starts refusing it.
 */
export const SORTABLE_COLUMNS = Object.freeze({
  /** `POST /users/search`: the staff console's clients list. */
  users: Object.freeze([
    'userCreatedAt',
    'email',
    'fullName',
    'firstName',
    'lastName',
    'status',
    'role',
    'balance',
    'profileId',
  ] as const),
  /** `POST /users/staff/search`: the staff console's staff list (ADR 0078). */
  staff: Object.freeze(['userCreatedAt', 'email', 'fullName', 'status', 'role', 'twoFactorEnabled'] as const),
  /** `POST /payments/search`, `/payments/search/{userUuid}` and `/payments/export`. */
  payments: Object.freeze([
    'createdAt',
    'amount',
    'status',
    'type',
    'method',
    'aggregator',
    'paymentId',
    'userEmail',
  ] as const),
  /** `POST /payment-plans/search`: the packages list, in the console and in the client app. */
  paymentPlans: Object.freeze(['createdAt', 'name', 'price', 'durationInMonths', 'status'] as const),
  /** `POST /subscriptions/search`: the subscriptions lists of the console and the client app. */
  subscriptions: Object.freeze([
    'createdAt',
    'startDate',
    'endDate',
    'price',
    'status',
    'type',
    'durationInMonth',
    'userEmail',
  ] as const),
  /** `POST /audit-logs/search`: the activity log. */
  auditLogs: Object.freeze(['createdAt', 'operationType', 'targetType'] as const),
});

export type SortableResource = keyof typeof SORTABLE_COLUMNS;
export type SortColumn<R extends SortableResource> = (typeof SORTABLE_COLUMNS)[R][number];
export type UserSortColumn = SortColumn<'users'>;
export type StaffSortColumn = SortColumn<'staff'>;
export type PaymentSortColumn = SortColumn<'payments'>;
export type AuditLogSortColumn = SortColumn<'auditLogs'>;
export type PaymentPlanSortColumn = SortColumn<'paymentPlans'>;
export type SubscriptionSortColumn = SortColumn<'subscriptions'>;

/** Whether `id` is a column the resource sorts by. */
export function isSortColumn<R extends SortableResource>(resource: R, id: unknown): id is SortColumn<R> {
  return typeof id === 'string' && (SORTABLE_COLUMNS[resource] as readonly string[]).includes(id);
}
