import {
  API_ROUTES,
  CUSTOMER_ROLES,
  LIMITS,
  type SortableResource,
  type SortColumn,
  type AccountHistory,
  type AuditLogSearchRequest,
  type AuditOperationType,
  type DashboardSummary,
  type AuditTargetType,
  type ChangePaymentStatusRequest,
  type RefundToBalanceRequest,
  type CreateUserRequest,
  type ExtendSubscriptionRequest,
  type ManualPaymentRequest,
  type Note,
  type SavedCardView,
  type NotificationPreferences,
  type CreatePromoCodeRequest,
  type PromoCodeHold,
  type PromoCodeView,
  type SentNotification,
  type UserSessionView,
  type EndClientSessionsRequest,
  type ViewAsOpened,
  type Page,
  type Payment,
  type PaymentAggregator,
  type PaymentMethod,
  type PaymentSearchRequest,
  type PaymentStatus,
  type PaymentType,
  type Plan,
  type PlanRequest,
  type PlanSearchRequest,
  type PlanStatus,
  PLAN_DURATIONS_MONTHS,
  type PlanDurationMonths,
  type SortRequest,
  SORTABLE_COLUMNS,
  type StaffRole,
  type StaffSearchRequest,
  type SubscriptionSearchRequest,
  type SubscriptionStatus,
  type SubscriptionType,
  type User,
  type UserRole,
  type UserSearchRequest,
  type UserStatus,
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastSummary,
  type ClientFilterRequest,
  type CreateBroadcastRequest,
} from '@kupa/proto';
import simpleRestProvider from 'ra-data-simple-rest';
import {
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type GetManyReferenceParams,
  type Identifier,
  type RaRecord,
  type UpdateParams,
} from 'react-admin';
import { httpClient } from './http-client';
import { toDayEnd, toDayStart, toList, toPositiveInteger, toPriceBound } from './filter-values';

type Filter = Record<string, unknown>;

/**
 * How a react-admin resource maps onto the API: its search and record paths, the field that identifies a record, and
 * how the filter form's values become the body of its search.
 */
/** `R` names the search's entry in proto's `SORTABLE_COLUMNS`. */
interface ResourceApi<R extends SortableResource = SortableResource> {
  /** The path `ra-data-simple-rest` appends to the API base for the CRUD calls it still makes (create). */
  restPath: string;
  searchPath: string;
  recordPath(id: Identifier): string;
  idField: string;
  /**
   * The sorts the console offers: each react-admin sort field, and the column of proto's `SORTABLE_COLUMNS` it is
   * sent as. Any other field is not sent and the API's default order applies. That also covers a sort react-admin
   * kept in its store from an earlier visit, which would otherwise break the list on every visit until another
   * column was clicked.
   */
  sortIds: Readonly<Record<string, SortColumn<R>>>;
  toSearchFilters(filter: Filter): Record<string, unknown>;
  /**
   * The search path that lists the records referencing another one (`POST /api/payments/search/{userUuid}`), for
   * the targets that have their own endpoint; other targets become a filter of the ordinary search.
   */
  referenceSearchPath?(target: string, id: Identifier): string | undefined;
}

function dateRange(from: unknown, to: unknown) {
  const range = { from: toDayStart(from), to: toDayEnd(to) };
  return range.from || range.to ? range : undefined;
}

/** The clients list's filter form as the clients search's body: the bulk page selects with the same translation. */
export function clientFilters(filter: Filter): Omit<UserSearchRequest, 'page' | 'size' | 'sorts'> {
  const keyWord = typeof filter.keyWord === 'string' ? filter.keyWord.trim() : '';
  const roles = toList(filter.roles) as UserRole[];
  return {
    keyWord: keyWord || undefined,
    statuses: nonEmpty(toList(filter.statuses) as UserStatus[]),
    // The clients list is about customers: with no role chosen it still shows only clients and ambassadors.
    roles: roles.length > 0 ? roles : [...CUSTOMER_ROLES],
    registrationDate: dateRange(filter.registrationDateFrom, filter.registrationDateTo),
  };
}

function activityLogFilters(filter: Filter): Omit<AuditLogSearchRequest, 'page' | 'size' | 'sorts'> {
  return {
    createdAt: dateRange(filter.createdAtFrom, filter.createdAtTo),
    targetAndParentTypes: nonEmpty(toList(filter.targetAndParentTypes) as AuditTargetType[]),
    targetAndParentIds: nonEmpty(toList(filter.targetAndParentIds)),
    operationTypes: nonEmpty(toList(filter.operationTypes) as AuditOperationType[]),
  };
}

function paymentFilters(filter: Filter): Omit<PaymentSearchRequest, 'page' | 'size' | 'sorts'> {
  const keyWord = typeof filter.keyWord === 'string' ? filter.keyWord.trim() : '';
  return {
    keyWord: keyWord || undefined,
    // The id filter is an integer; anything else is left out rather than sent for the API to refuse.
    id: toPositiveInteger(filter.id),
    statuses: nonEmpty(toList(filter.statuses) as PaymentStatus[]),
    methods: nonEmpty(toList(filter.methods) as PaymentMethod[]),
    types: nonEmpty(toList(filter.types) as PaymentType[]),
    aggregators: nonEmpty(toList(filter.aggregators) as PaymentAggregator[]),
    createdDate: dateRange(filter.createdDateFrom, filter.createdDateTo),
    // Codes are compared in capitals by the API; a blank field is no filter.
    promoCode: typeof filter.promoCode === 'string' && filter.promoCode.trim() ? filter.promoCode.trim() : undefined,
  };
}

function packageFilters(filter: Filter): Omit<PlanSearchRequest, 'page' | 'size' | 'sorts'> {
  // A bound that is not a price is left out rather than sent for the API to refuse; the filter form says why.
  const price = { from: toPriceBound(filter.priceFrom), to: toPriceBound(filter.priceTo) };
  return {
    statuses: nonEmpty(toList(filter.statuses) as PlanStatus[]),
    price: price.from !== undefined || price.to !== undefined ? compact(price) : undefined,
  };
}

/** The subscriptions list's filter form as the search's body: the bulk page selects with the same translation. */
export function subscriptionFilters(filter: Filter): Omit<SubscriptionSearchRequest, 'page' | 'size' | 'sorts'> {
  const price = { from: toPriceBound(filter.priceFrom), to: toPriceBound(filter.priceTo) };
  const userUuid = typeof filter.userUuid === 'string' ? filter.userUuid.trim() : '';
  return {
    // The id field takes one id or several, separated by spaces or commas.
    ids: nonEmpty(toList(filter.id)),
    userUuid: userUuid || undefined,
    durationsInMonths: nonEmpty(
      toList(filter.durationsInMonths)
        .map(Number)
        .filter((months): months is PlanDurationMonths =>
          (PLAN_DURATIONS_MONTHS as readonly number[]).includes(months),
        ),
    ),
    types: nonEmpty(toList(filter.types) as SubscriptionType[]),
    statuses: nonEmpty(toList(filter.statuses) as SubscriptionStatus[]),
    startDate: dateRange(filter.startDateFrom, filter.startDateTo),
    endDate: dateRange(filter.endDateFrom, filter.endDateTo),
    createdAt: dateRange(filter.createdAtFrom, filter.createdAtTo),
    price: price.from !== undefined || price.to !== undefined ? compact(price) : undefined,
  };
}

function nonEmpty<T>(values: T[]): T[] | undefined {
  return values.length > 0 ? values : undefined;
}

/** Sort fields that the API names exactly as the record's field. */
function sameIds<Id extends string>(...ids: Id[]): Record<Id, Id> {
  return Object.fromEntries(ids.map((id) => [id, id])) as Record<Id, Id>;
}

const clientsApi: ResourceApi<'users'> = {
  restPath: 'users',
  searchPath: API_ROUTES.usersSearch,
  recordPath: (id) => API_ROUTES.user(String(id)),
  idField: 'userUuid',
  // The API has no sort by uuid, so react-admin's fallback sort on `id` gets the API's default order. The balance
  // sorts on the server, over every client, not within the page (ADR 0078).
  sortIds: sameIds('fullName', 'email', 'role', 'status', 'userCreatedAt', 'balance'),
  toSearchFilters: clientFilters,
};

function staffFilters(filter: Filter): Omit<StaffSearchRequest, 'page' | 'size' | 'sorts'> {
  const keyWord = typeof filter.keyWord === 'string' ? filter.keyWord.trim() : '';
  const twoFactor = filter.twoFactorEnabled;
  return {
    keyWord: keyWord || undefined,
    statuses: nonEmpty(toList(filter.statuses) as UserStatus[]),
    roles: nonEmpty(toList(filter.roles) as StaffRole[]),
    twoFactorEnabled:
      twoFactor === true || twoFactor === 'true'
        ? true
        : twoFactor === false || twoFactor === 'false'
          ? false
          : undefined,
  };
}

/** The staff list (admins only, ADR 0078): staff accounts, whose details are the client detail's pages. */
const staffApi: ResourceApi<'staff'> = {
  restPath: 'users',
  searchPath: API_ROUTES.staffSearch,
  recordPath: (id) => API_ROUTES.user(String(id)),
  idField: 'userUuid',
  sortIds: sameIds(...SORTABLE_COLUMNS.staff),
  toSearchFilters: staffFilters,
};

const activityLogApi: ResourceApi<'auditLogs'> = {
  restPath: 'audit-logs',
  searchPath: API_ROUTES.auditLogsSearch,
  recordPath: (id) => API_ROUTES.auditLog(id),
  idField: 'id',
  // The list shows the target's type as `target.type`; the API sorts it as `targetType`. Nothing sorts by author.
  sortIds: { ...sameIds('createdAt', 'operationType'), 'target.type': 'targetType' },
  toSearchFilters: activityLogFilters,
};

const paymentsApi: ResourceApi<'payments'> = {
  restPath: 'payments',
  searchPath: API_ROUTES.paymentsSearch,
  recordPath: (id) => API_ROUTES.payment(String(id)),
  idField: 'paymentId',
  sortIds: {
    ...sameIds('paymentId', 'createdAt', 'userEmail', 'amount', 'status', 'type', 'method', 'aggregator'),
    id: 'paymentId',
  },
  toSearchFilters: paymentFilters,
  referenceSearchPath: (target, id) => (target === 'userUuid' ? API_ROUTES.userPaymentsSearch(String(id)) : undefined),
};

const packagesApi: ResourceApi<'paymentPlans'> = {
  restPath: 'payment-plans',
  searchPath: API_ROUTES.paymentPlansSearch,
  recordPath: (id) => API_ROUTES.paymentPlan(String(id)),
  idField: 'id',
  sortIds: sameIds('createdAt', 'name', 'price', 'durationInMonths', 'status'),
  toSearchFilters: packageFilters,
};

const subscriptionsApi: ResourceApi<'subscriptions'> = {
  restPath: 'subscriptions',
  searchPath: API_ROUTES.subscriptionsSearch,
  recordPath: (id) => API_ROUTES.subscription(String(id)),
  idField: 'id',
  // Every column proto lets the search sort by is a field of the record under the same name.
  sortIds: sameIds(...SORTABLE_COLUMNS.subscriptions),
  toSearchFilters: subscriptionFilters,
};

export const RESOURCE_APIS: Readonly<Record<string, ResourceApi>> = {
  clients: clientsApi,
  staff: staffApi,
  'activity-log': activityLogApi,
  payments: paymentsApi,
  packages: packagesApi,
  subscriptions: subscriptionsApi,
};

function apiOf(resource: string): ResourceApi {
  const api = RESOURCE_APIS[resource];
  if (!api) throw new Error(`The resource "${resource}" has no API yet`);
  return api;
}

function toRecord(api: ResourceApi, row: Record<string, unknown>): RaRecord {
  return { ...row, id: row[api.idField] as Identifier };
}

/** Drops undefined values so the body carries only what the user asked for (the API refuses unknown fields). */
export function compact(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * Translates react-admin's list parameters into our search body: 0-based page, bounded size, `sorts` (only ids the
 * API accepts), filters.
 */
export function toSearchBody(resource: string, params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) {
  const api = apiOf(resource);
  const page = Math.max((params.pagination?.page ?? 1) - 1, 0);
  const size = Math.min(Math.max(params.pagination?.perPage ?? LIMITS.pageSizeDefault, 1), LIMITS.pageSizeMax);
  const sorts: SortRequest[] = [];
  const field = params.sort?.field;
  // Own keys only: a field named after an Object.prototype member (`?sort=constructor`) is no sort id either.
  const sortId = field && Object.hasOwn(api.sortIds, field) ? api.sortIds[field] : undefined;
  if (sortId) sorts.push({ id: sortId, desc: params.sort?.order === 'DESC' });
  return { page, size, sorts, ...compact(api.toSearchFilters(params.filter ?? {})) };
}

async function search(
  resource: string,
  params: Pick<GetListParams, 'pagination' | 'sort' | 'filter' | 'signal'>,
  searchPath?: string,
): Promise<GetListResult> {
  const api = apiOf(resource);
  const { json } = await httpClient<Page<Record<string, unknown>>>(searchPath ?? api.searchPath, {
    method: 'POST',
    body: JSON.stringify(toSearchBody(resource, params)),
    signal: params.signal,
  });
  // A total that is only a lower bound (a payments keyword within dates, ADR 0125) is not shown as one: react-admin
  // then pages on `pageInfo` alone and says "of more than …", and a full page may have another after it.
  if (json.totalIsLowerBound)
    return {
      data: json.content.map((row) => toRecord(api, row)),
      pageInfo: { hasNextPage: json.content.length === json.size, hasPreviousPage: json.page > 0 },
    };
  return {
    data: json.content.map((row) => toRecord(api, row)),
    total: json.totalElements,
    pageInfo: { hasNextPage: json.page + 1 < json.totalPages, hasPreviousPage: json.page > 0 },
  };
}

async function getOne(resource: string, id: Identifier, signal?: AbortSignal): Promise<RaRecord> {
  const api = apiOf(resource);
  const { json } = await httpClient<Record<string, unknown>>(api.recordPath(id), { signal });
  return toRecord(api, json);
}

function searchReferences(resource: string, params: GetManyReferenceParams): Promise<GetListResult> {
  const ownPath = apiOf(resource).referenceSearchPath?.(params.target, params.id);
  if (ownPath) return search(resource, params, ownPath);
  return search(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
}

export interface AccountHistoryQuery {
  account: string;
  /** The instant to look at, ISO-8601. */
  asOf: string;
  page: number;
  size: number;
}

/** Commands that are not CRUD. Screens call them through `useDataProvider` and wait for the server's answer. */
export interface KupaDataProvider extends DataProvider {
  /** Every promo code with its uses and revenue (docs/adr/0088-promo-codes.md). */
  listPromoCodes(): Promise<PromoCodeView[]>;
  /** Broadcasts (docs/adr/0091-broadcasts.md): how many a filter reaches, sending one, the list and one's recipients. */
  previewBroadcast(filter: ClientFilterRequest): Promise<BroadcastPreview>;
  sendBroadcast(request: CreateBroadcastRequest): Promise<BroadcastSummary>;
  listBroadcasts(): Promise<BroadcastSummary[]>;
  getBroadcast(id: string): Promise<BroadcastDetail>;
  createPromoCode(request: CreatePromoCodeRequest): Promise<PromoCodeView>;
  disablePromoCode(code: string): Promise<PromoCodeView>;
  /** A code's live holds: uses held for a card checkout or crypto deposit not settled yet (ADR 0088). */
  promoCodeHolds(code: string): Promise<PromoCodeHold[]>;
  /** An admin opens a staff account (`POST /users`); the answer is the new, active account. */
  createStaffAccount(request: CreateUserRequest): Promise<User>;
  changeUserStatus(userUuid: string, status: UserStatus): Promise<User | null>;
  changeUserRole(userUuid: string, role: UserRole): Promise<User | null>;
  setUserPassword(userUuid: string, password: string): Promise<void>;
  /** An admin removes another account's two-factor sign-in, staff or client (a lost authenticator, ADR 0098). */
  resetTwoFactor(userUuid: string): Promise<void>;
  /** A read-only token to look at a client's portal (ADR 0092); every opening is in the client's activity log. */
  openViewAs(userUuid: string): Promise<ViewAsOpened>;
  getNotes(userUuid: string): Promise<Note[]>;
  /** What one client was sent (ADR 0083), newest first, with whether it was read and the mail's state. */
  getClientNotifications(userUuid: string, page: number): Promise<Page<SentNotification>>;
  /** A client's live sessions (ADR 0099); admins and managers. */
  getClientSessions(userUuid: string): Promise<UserSessionView[]>;
  /** Ends every session of a client, with the reason the client is told (ADR 0099); admins only. */
  endClientSessions(userUuid: string, request: EndClientSessionsRequest): Promise<{ ended: number }>;
  /** The client's saved card for automatic renewals: brand, last four digits and expiry, or none (ADR 0085). */
  getClientSavedCard(userUuid: string): Promise<SavedCardView>;
  /** A client's notification preferences, read only: channels per kind, lead days, threshold, quiet hours (ADR 0102). */
  getClientNotificationPreferences(userUuid: string): Promise<NotificationPreferences>;
  addNote(userUuid: string, text: string): Promise<Note>;
  deleteNote(userUuid: string, noteId: string): Promise<void>;
  changePaymentStatus(paymentId: Identifier, request: ChangePaymentStatusRequest): Promise<Payment>;
  /** An admin gives a subscription payment back to the client's balance, whole, once (ADR 0092). */
  refundPaymentToBalance(paymentId: Identifier, request: RefundToBalanceRequest): Promise<{ refundPaymentId: number }>;
  /** A manual deposit or balance fix; the key makes a retried submission book the money only once (docs/api.md). */
  createManualPayment(request: ManualPaymentRequest, idempotencyKey: string): Promise<Payment>;
  getAccountHistory(query: AccountHistoryQuery, signal?: AbortSignal): Promise<AccountHistory>;
  /** An admin takes a package out of sale or offers it again. */
  changePlanStatus(planId: Identifier, status: PlanStatus): Promise<Plan>;
  /** Staff give a subscription another login at the streaming service (not a trial's). */
  changeSubscriptionLogin(subscriptionId: Identifier, login: string): Promise<void>;
  /** Staff set a subscription's password at the streaming service; nobody ever reads the old one. */
  changeSubscriptionPassword(subscriptionId: Identifier, password: string): Promise<void>;
  /** Staff cancel a subscription: it stays ACTIVE to its end and is never renewed (not a trial). */
  cancelSubscription(subscriptionId: Identifier): Promise<void>;
  /** Withdraws a cancellation before the end date (ADR 0076). */
  resumeSubscription(subscriptionId: Identifier): Promise<void>;
  /** An admin adds days with a reason the client sees (ADR 0089); the key makes a repeated submission add them once. */
  extendSubscription(
    subscriptionId: Identifier,
    request: ExtendSubscriptionRequest,
    idempotencyKey: string,
  ): Promise<void>;
  /** The admin's dashboard figures. */
  getDashboard(signal?: AbortSignal): Promise<DashboardSummary>;
  /** Marks a large deposit in the dashboard's queue as seen by the caller; it leaves the queue. */
  acknowledgeLargeDeposit(paymentId: Identifier): Promise<void>;
}

/**
 * The body of `POST /payment-plans` and `PUT /payment-plans/{id}`: exactly the fields an admin sets, whatever else the
 * form's record holds (`id`, `createdAt`, `updatedAt`), since the API refuses unknown fields. The price input keeps
 * the typed text so that "1.50" can be typed; it becomes a number here.
 */
export function toPlanRequest(data: Record<string, unknown>): PlanRequest {
  const features = Array.isArray(data.features) ? data.features : [];
  return {
    name: String(data.name ?? ''),
    durationInMonths: Number(data.durationInMonths) as PlanRequest['durationInMonths'],
    price: typeof data.price === 'number' ? data.price : Number(String(data.price ?? '').trim()),
    currency: (data.currency as PlanRequest['currency']) ?? 'USD',
    isRecurrent: data.isRecurrent === true,
    description: String(data.description ?? ''),
    // react-admin's list input holds each line as given, or as `{ value }` from an empty row added and left blank.
    features: features.map((feature) => String(feature ?? '')),
    status: data.status as PlanStatus,
    // Only an explicit "no" keeps a package off card sale; a record from before the flag existed stays on sale.
    cardPaymentAllowed: data.cardPaymentAllowed !== false,
    nameEn: String(data.nameEn ?? ''),
    descriptionEn: String(data.descriptionEn ?? ''),
  };
}

async function savePlan(path: string, method: 'POST' | 'PUT', data: Record<string, unknown>): Promise<RaRecord> {
  const { json } = await httpClient<Plan>(path, { method, body: JSON.stringify(toPlanRequest(data)) });
  return toRecord(RESOURCE_APIS.packages, json as unknown as Record<string, unknown>);
}

async function changePaymentStatus(paymentId: Identifier, request: ChangePaymentStatusRequest): Promise<Payment> {
  const { json } = await httpClient<Payment>(API_ROUTES.paymentStatus(String(paymentId)), {
    method: 'PUT',
    body: JSON.stringify(request),
  });
  return json;
}

/**
 * A payment's only editable field is its status, so react-admin's `update` on payments is the status command. That
 * lets the detail page use `useUpdate` in pessimistic mode and have the answer replace the cached record. The
 * negative-balance confirmation and the note for the client travel in `data` beside the status, not in `meta`:
 * react-admin keys the cached record
 * by `{ id, meta }`, so an answer to an update with a `meta` would land beside the record the page shows, which would
 * keep the old status until a reload.
 */
async function updatePayment(params: UpdateParams): Promise<RaRecord> {
  const { status, confirmNegativeBalance, publicNote } = params.data as {
    status?: PaymentStatus;
    confirmNegativeBalance?: boolean;
    publicNote?: string | null;
  };
  if (!status) throw new Error('A payment update needs a status');
  const payment = await changePaymentStatus(params.id, {
    status,
    ...(confirmNegativeBalance ? { confirmNegativeBalance } : {}),
    ...(publicNote ? { publicNote } : {}),
  });
  return toRecord(RESOURCE_APIS.payments, payment as unknown as Record<string, unknown>);
}

/**
 * The base REST provider, pointed at each resource's API path instead of react-admin's resource name. Its URLs are
 * API paths (`/users`): the session client puts them under the API base.
 */
const base = simpleRestProvider('', httpClient);

export const dataProvider: KupaDataProvider = {
  ...base,
  getList: (resource, params) => search(resource, params),
  getManyReference: (resource, params: GetManyReferenceParams) => searchReferences(resource, params),
  getOne: async (resource, params) => ({ data: (await getOne(resource, params.id, params.signal)) as never }),
  getMany: async (resource, params) => ({
    data: (await Promise.all(params.ids.map((id) => getOne(resource, id, params.signal)))) as never[],
  }),
  create: async (resource, params) =>
    resource === 'packages'
      ? { data: (await savePlan(API_ROUTES.paymentPlans, 'POST', params.data)) as never }
      : base.create(apiOf(resource).restPath, params),
  update: async (resource, params) => {
    if (resource === 'payments') return { data: (await updatePayment(params)) as never };
    if (resource === 'packages')
      return { data: (await savePlan(API_ROUTES.paymentPlan(String(params.id)), 'PUT', params.data)) as never };
    return base.update(apiOf(resource).restPath, params);
  },
  updateMany: (resource, params) => base.updateMany(apiOf(resource).restPath, params),
  delete: async (resource, params) => {
    if (resource !== 'packages') return base.delete(apiOf(resource).restPath, params);
    // The API answers a deletion with 204 and no body; react-admin wants the deleted record back.
    await httpClient(API_ROUTES.paymentPlan(String(params.id)), { method: 'DELETE' });
    return { data: (params.previousData ?? { id: params.id }) as never };
  },
  deleteMany: (resource, params) => base.deleteMany(apiOf(resource).restPath, params),

  async createStaffAccount(request) {
    const { json } = await httpClient<User>(API_ROUTES.users, { method: 'POST', body: JSON.stringify(request) });
    return json;
  },
  async changeUserStatus(userUuid, status) {
    const { json } = await httpClient<User | null>(API_ROUTES.userStatus(userUuid), {
      method: 'PUT',
      body: JSON.stringify({ status }),
    });
    return json;
  },
  async changeUserRole(userUuid, role) {
    const { json } = await httpClient<User | null>(API_ROUTES.userRole(userUuid), {
      method: 'PUT',
      body: JSON.stringify({ role }),
    });
    return json;
  },
  async setUserPassword(userUuid, password) {
    await httpClient(API_ROUTES.setUserPassword(userUuid), {
      method: 'PUT',
      body: JSON.stringify({ password }),
    });
  },
  async resetTwoFactor(userUuid) {
    await httpClient(API_ROUTES.userTwoFactor(userUuid), { method: 'DELETE' });
  },
  async openViewAs(userUuid) {
    const { json } = await httpClient<ViewAsOpened>(API_ROUTES.userViewAs(userUuid), { method: 'POST' });
    return json;
  },
  async getClientSessions(userUuid) {
    const { json } = await httpClient<UserSessionView[]>(API_ROUTES.userSessions(userUuid));
    return json;
  },
  async endClientSessions(userUuid, request) {
    const { json } = await httpClient<{ ended: number }>(API_ROUTES.userSessionsEnd(userUuid), {
      method: 'POST',
      body: JSON.stringify(request),
    });
    return json;
  },
  async getClientNotifications(userUuid, page) {
    const { json } = await httpClient<Page<SentNotification>>(API_ROUTES.userNotifications(userUuid), {
      method: 'POST',
      body: JSON.stringify({ page, size: LIMITS.pageSizeDefault }),
    });
    return json;
  },
  async getClientSavedCard(userUuid) {
    const { json } = await httpClient<SavedCardView>(API_ROUTES.clientSavedCard(userUuid));
    return json;
  },
  async getClientNotificationPreferences(userUuid) {
    const { json } = await httpClient<NotificationPreferences>(API_ROUTES.userNotificationPreferences(userUuid));
    return json;
  },
  async getNotes(userUuid) {
    const { json } = await httpClient<Note[]>(API_ROUTES.userNotes(userUuid));
    return Array.isArray(json) ? json : [];
  },
  async addNote(userUuid, text) {
    const { json } = await httpClient<Note>(API_ROUTES.userNotes(userUuid), {
      method: 'POST',
      body: JSON.stringify({ text }),
    });
    return json;
  },
  async deleteNote(userUuid, noteId) {
    await httpClient(API_ROUTES.userNote(userUuid, noteId), { method: 'DELETE' });
  },
  changePaymentStatus,
  async createManualPayment(request, idempotencyKey) {
    const { json } = await httpClient<Payment>(API_ROUTES.payments, {
      method: 'POST',
      headers: { 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(request),
    });
    return json;
  },
  async changePlanStatus(planId, status) {
    const { json } = await httpClient<Plan>(API_ROUTES.paymentPlanStatus(String(planId)), {
      method: 'PUT',
      body: JSON.stringify({ status }),
    });
    return json;
  },
  async changeSubscriptionLogin(subscriptionId, login) {
    await httpClient(API_ROUTES.subscriptionLogin(String(subscriptionId)), {
      method: 'PUT',
      body: JSON.stringify({ login }),
    });
  },
  async changeSubscriptionPassword(subscriptionId, password) {
    await httpClient(API_ROUTES.subscriptionPassword(String(subscriptionId)), {
      method: 'PUT',
      body: JSON.stringify({ password }),
    });
  },
  async cancelSubscription(subscriptionId) {
    await httpClient(API_ROUTES.subscription(String(subscriptionId)), { method: 'DELETE' });
  },
  async refundPaymentToBalance(paymentId, request) {
    const { json } = await httpClient<{ refundPaymentId: number }>(
      API_ROUTES.paymentRefundToBalance(String(paymentId)),
      {
        method: 'POST',
        body: JSON.stringify(request),
      },
    );
    return json;
  },
  async resumeSubscription(subscriptionId) {
    await httpClient(API_ROUTES.subscriptionResume(String(subscriptionId)), { method: 'POST' });
  },
  async extendSubscription(subscriptionId, request, idempotencyKey) {
    await httpClient(API_ROUTES.subscriptionExtension(String(subscriptionId)), {
      method: 'POST',
      headers: { 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(request),
    });
  },
  async previewBroadcast(filter) {
    const { json } = await httpClient<BroadcastPreview>(API_ROUTES.broadcastPreview, {
      method: 'POST',
      body: JSON.stringify(filter),
    });
    return json;
  },
  async sendBroadcast(request) {
    const { json } = await httpClient<BroadcastSummary>(API_ROUTES.broadcasts, {
      method: 'POST',
      body: JSON.stringify(request),
    });
    return json;
  },
  async listBroadcasts() {
    const { json } = await httpClient<BroadcastSummary[]>(API_ROUTES.broadcasts);
    return Array.isArray(json) ? json : [];
  },
  async getBroadcast(id) {
    const { json } = await httpClient<BroadcastDetail>(API_ROUTES.broadcast(id));
    return json;
  },
  async listPromoCodes() {
    const { json } = await httpClient<PromoCodeView[]>(API_ROUTES.promoCodes);
    return Array.isArray(json) ? json : [];
  },
  async createPromoCode(request) {
    const { json } = await httpClient<PromoCodeView>(API_ROUTES.promoCodes, {
      method: 'POST',
      body: JSON.stringify(request),
    });
    return json;
  },
  async disablePromoCode(code) {
    const { json } = await httpClient<PromoCodeView>(API_ROUTES.promoCodeDisable(code), { method: 'POST' });
    return json;
  },
  async promoCodeHolds(code) {
    const { json } = await httpClient<PromoCodeHold[]>(API_ROUTES.promoCodeHolds(code));
    return Array.isArray(json) ? json : [];
  },
  async getDashboard(signal) {
    const { json } = await httpClient<DashboardSummary>(API_ROUTES.dashboard, { signal });
    return json;
  },
  async acknowledgeLargeDeposit(paymentId) {
    await httpClient(API_ROUTES.largeDepositAcknowledgement(paymentId), { method: 'POST' });
  },
  async getAccountHistory({ account, asOf, page, size }, signal) {
    const query = new URLSearchParams({ asOf, page: String(page), size: String(size) });
    const { json } = await httpClient<AccountHistory>(`${API_ROUTES.accountHistory(account)}?${query.toString()}`, {
      signal,
    });
    return json;
  },
};
