import {
  LIMITS,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  isOneOf,
  isSortColumn,
  type PaymentAggregator,
  type PaymentMethod,
  type PaymentSearchRequest,
  type PaymentSortColumn,
  type PaymentStatus,
  type PaymentType,
  type SortRequest,
} from '@kupa/proto';

/** The columns the API sorts payments by: a URL may name any of them, and the table offers those it shows. */
export type PaymentSortId = PaymentSortColumn;

/** What the list shows, and asks the server for, while the URL names no sort. */
export const DEFAULT_PAYMENT_SORT: Readonly<SortRequest> = Object.freeze({ id: 'createdAt', desc: true });

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;

export interface CreatedDateFilter {
  /** A calendar day (`YYYY-MM-DD`, as a date input gives it) or a full ISO-8601 instant. */
  from?: string;
  to?: string;
}

/** The payments list's URL search params: paging, sorts and the payment filters. */
export interface PaymentsSearch {
  page?: number;
  size?: number;
  sorts?: SortRequest[];
  keyWord?: string;
  id?: number;
  statuses?: PaymentStatus[];
  methods?: PaymentMethod[];
  types?: PaymentType[];
  aggregators?: PaymentAggregator[];
  createdDate?: CreatedDateFilter;
}

export type PaymentsFilterKey = Exclude<keyof PaymentsSearch, 'page' | 'size' | 'sorts'>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function integerOf(raw: unknown): number | undefined {
  // The router parses `?page=2` into a number, but a hand-written `?page="2"` stays a string.
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function enumListOf<T extends string>(values: readonly T[], raw: unknown): T[] | undefined {
  const items = Array.isArray(raw) ? raw : [raw];
  const kept = [...new Set(items.filter((item): item is T => isOneOf(values, item)))].slice(
    0,
    LIMITS.filterListMaxItems,
  );
  return kept.length > 0 ? kept : undefined;
}

function sortsOf(raw: unknown): SortRequest[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const sorts: SortRequest[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, desc } = item as { id?: unknown; desc?: unknown };
    if (!isSortColumn('payments', id) || sorts.some((sort) => sort.id === id)) continue;
    sorts.push({ id, desc: desc === true || desc === 'true' });
  }
  return sorts.length > 0 ? sorts.slice(0, LIMITS.sortsMaxItems) : undefined;
}

function dateOf(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  if (DAY.test(raw)) return Number.isNaN(new Date(`${raw}T00:00:00`).getTime()) ? undefined : raw;
  return Number.isNaN(Date.parse(raw)) ? undefined : raw;
}

function createdDateOf(raw: unknown): CreatedDateFilter | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const from = dateOf((raw as CreatedDateFilter).from);
  const to = dateOf((raw as CreatedDateFilter).to);
  if (from === undefined && to === undefined) return undefined;
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/**
 * Reads the list's search params defensively: a hand-edited or outdated URL loses the values it cannot use
 * instead of sending the server a request it would refuse. Only present values are kept, so the URL stays short.
 */
export function parsePaymentsSearch(search: Record<string, unknown>): PaymentsSearch {
  const result: PaymentsSearch = {};
  const page = integerOf(search.page);
  if (page !== undefined && page > 0) result.page = page;
  const size = integerOf(search.size);
  if (size !== undefined && size > 0) result.size = Math.min(size, LIMITS.pageSizeMax);
  const sorts = sortsOf(search.sorts);
  if (sorts) result.sorts = sorts;
  // The router turns an all-digit keyword into a number; the keyword itself is always text.
  const keyWord = typeof search.keyWord === 'number' ? String(search.keyWord) : search.keyWord;
  if (typeof keyWord === 'string' && keyWord.trim() !== '')
    result.keyWord = keyWord.trim().slice(0, LIMITS.keywordMaxLength);
  const id = integerOf(search.id);
  if (id !== undefined && id > 0) result.id = id;
  const statuses = enumListOf(PAYMENT_STATUSES, search.statuses);
  if (statuses) result.statuses = statuses;
  const methods = enumListOf(PAYMENT_METHODS, search.methods);
  if (methods) result.methods = methods;
  const types = enumListOf(PAYMENT_TYPES, search.types);
  if (types) result.types = types;
  const aggregators = enumListOf(PAYMENT_AGGREGATORS, search.aggregators);
  if (aggregators) result.aggregators = aggregators;
  const createdDate = createdDateOf(search.createdDate);
  if (createdDate) result.createdDate = createdDate;
  return result;
}

/** A calendar day's first or last instant in the browser's time zone, so "to" includes the whole day. */
function dayBoundary(value: string, edge: 'start' | 'end'): string {
  if (!DAY.test(value)) return value;
  const [year, month, day] = value.split('-').map(Number);
  const date = edge === 'start' ? new Date(year, month - 1, day) : new Date(year, month - 1, day, 23, 59, 59, 999);
  return date.toISOString();
}

/** The first sort in the URL, or the default one: the column the table marks as sorted. */
export function effectiveSort(search: PaymentsSearch): SortRequest {
  return search.sorts?.[0] ?? DEFAULT_PAYMENT_SORT;
}

/** The body of `POST /payments/search` for the list's URL state. */
export function toPaymentSearchRequest(search: PaymentsSearch): PaymentSearchRequest {
  const request: PaymentSearchRequest = {
    page: search.page ?? LIMITS.pageDefault,
    size: search.size ?? LIMITS.pageSizeDefault,
    // The default sort is sent explicitly, so the order on screen never depends on the server's own default.
    sorts: search.sorts ?? [{ ...DEFAULT_PAYMENT_SORT }],
  };
  if (search.keyWord !== undefined) request.keyWord = search.keyWord;
  if (search.id !== undefined) request.id = search.id;
  if (search.statuses) request.statuses = search.statuses;
  if (search.methods) request.methods = search.methods;
  if (search.types) request.types = search.types;
  if (search.aggregators) request.aggregators = search.aggregators;
  if (search.createdDate) {
    const { from, to } = search.createdDate;
    request.createdDate = {
      ...(from !== undefined ? { from: dayBoundary(from, 'start') } : {}),
      ...(to !== undefined ? { to: dayBoundary(to, 'end') } : {}),
    };
  }
  return request;
}

export function hasFilters(search: PaymentsSearch): boolean {
  return activeFilterCount(search) > 0;
}

/** How many filters hold a value (the collapsed filters say so on a phone). */
export function activeFilterCount(search: PaymentsSearch): number {
  return [
    search.keyWord,
    search.id,
    search.statuses,
    search.methods,
    search.types,
    search.aggregators,
    search.createdDate,
  ].filter((value) => value !== undefined).length;
}
