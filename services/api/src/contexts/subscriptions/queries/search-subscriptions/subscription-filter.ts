import { LIMITS, parseAmountToMinor } from '@kupa/proto';
import { PickType } from '@nestjs/swagger';
import { assert } from '../../../../kernel';
import type { SqlParameters } from '../../../../platform/database/sql-parameters';
import type { DateRangeDto } from '../../../../platform/http';
import { SearchSubscriptionsRequestDto } from './search-subscriptions.request.dto';

/** The staff subscriptions list's filters, without paging and sorting: what another context selects with. */
export class SubscriptionFilterDto extends PickType(SearchSubscriptionsRequestDto, [
  'ids',
  'userUuid',
  'durationsInMonths',
  'types',
  'statuses',
  'startDate',
  'endDate',
  'createdAt',
  'price',
] as const) {}

export type SubscriptionFilter = Pick<
  SearchSubscriptionsRequestDto,
  'ids' | 'userUuid' | 'durationsInMonths' | 'types' | 'statuses' | 'startDate' | 'endDate' | 'createdAt' | 'price'
>;

/** A date without a time part (`2026-05-03`): as the upper bound it means "to the end of that day". */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

function boundMinor(amount: number): number {
  const parsed = parseAmountToMinor(amount, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor });
  assert(parsed.ok, 'the DTO accepted only valid price bounds');
  return parsed.amountMinor;
}

/** An inclusive date range on `column`; a day without a time reaches to the end of that day. */
function dateRange(column: string, range: DateRangeDto | undefined, parameters: SqlParameters): string[] {
  const conditions: string[] = [];
  if (range?.from) conditions.push(`${column} >= ${parameters.add(new Date(range.from))}`);
  if (range?.to) {
    conditions.push(
      DATE_ONLY.test(range.to)
        ? `${column} < ${parameters.add(new Date(new Date(range.to).getTime() + DAY_MS))}`
        : `${column} <= ${parameters.add(new Date(range.to))}`,
    );
  }
  return conditions;
}

/**
 * The conditions (on `subscriptions s`) of the subscriptions list's filters: the search uses them, and the bulk
 * operation selects its targets with the same ones, so a preview counts what the list shows.
 */
export function subscriptionFilterConditions(filter: SubscriptionFilter, parameters: SqlParameters): string[] {
  const conditions: string[] = [];
  if (filter.userUuid) conditions.push(`s.user_uuid = ${parameters.add(filter.userUuid)}::uuid`);
  if (filter.ids && filter.ids.length > 0) {
    const patterns = filter.ids.map((part) => `%${part}%`);
    conditions.push(`s.id::text LIKE ANY(${parameters.add(patterns)}::text[])`);
  }
  const lists: Array<[string, readonly unknown[] | undefined, string]> = [
    ['s.duration_in_month', filter.durationsInMonths, 'smallint[]'],
    ['s.type', filter.types, 'text[]'],
    ['s.status', filter.statuses, 'text[]'],
  ];
  for (const [column, values, type] of lists) {
    if (values && values.length > 0) conditions.push(`${column} = ANY(${parameters.add(values)}::${type})`);
  }
  conditions.push(...dateRange('s.start_date', filter.startDate, parameters));
  conditions.push(...dateRange('s.end_date', filter.endDate, parameters));
  conditions.push(...dateRange('s.created_at', filter.createdAt, parameters));
  const from = filter.price?.from;
  const to = filter.price?.to;
  if (from !== undefined && from !== null) conditions.push(`s.price_minor >= ${parameters.add(boundMinor(from))}`);
  if (to !== undefined && to !== null) conditions.push(`s.price_minor <= ${parameters.add(boundMinor(to))}`);
  return conditions;
}
