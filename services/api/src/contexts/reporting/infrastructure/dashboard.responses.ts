import { ApiProperty } from '@nestjs/swagger';
import {
  DASHBOARD_QUEUE_KINDS,
  type DashboardDiscounts,
  type DashboardQueueGroup,
  type DashboardQueueItem,
  type DashboardQueueKind,
  type DashboardSummary,
  type MonthComparison,
} from '@kupa/proto';
import { InstantProperty, SignedAmountProperty } from '../../../platform/http';

/** The dashboard's answer as OpenAPI schemas; the shapes are proto's payload types, which these implement. */

export class MoneyComparisonDto implements MonthComparison {
  @SignedAmountProperty({ description: 'US dollars, this calendar month (UTC) so far' })
  thisMonth: number;

  @SignedAmountProperty({ description: 'US dollars, the whole previous calendar month (UTC)' })
  lastMonth: number;
}

export class CountComparisonDto implements MonthComparison {
  @ApiProperty({ type: 'integer', minimum: 0 })
  thisMonth: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  lastMonth: number;
}

export class DashboardDayDto {
  @ApiProperty({ format: 'date', example: '2026-03-01' })
  date: string;

  @SignedAmountProperty({ description: 'Subscription payments less refunds, US dollars' })
  revenue: number;

  @SignedAmountProperty({ minimum: 0, description: 'Deposits (balance corrections left out), US dollars' })
  deposits: number;
}

export class DashboardDiscountsDto implements DashboardDiscounts {
  @SignedAmountProperty({ minimum: 0, description: 'Referral discounts: list price less the price paid' })
  referral: number;

  @SignedAmountProperty({ minimum: 0, description: 'What promo codes took off the list price' })
  promoCode: number;

  @SignedAmountProperty({ minimum: 0, description: 'The worth of the voucher batches given away' })
  voucherGiveaways: number;
}

export class DashboardQueueItemDto implements DashboardQueueItem {
  @ApiProperty({ description: "The subscription's uuid, or the payment's number as text" })
  id: string;

  @ApiProperty()
  userEmail: string;

  @SignedAmountProperty({
    minimum: 0,
    nullable: true,
    description: "The payment's US dollars; null for a subscription",
  })
  amount: number | null;

  @InstantProperty({ description: "The job's failure, the renewal's next attempt, or the payment's creation" })
  at: string;
}

export class DashboardQueueGroupDto implements DashboardQueueGroup {
  @ApiProperty({ enum: DASHBOARD_QUEUE_KINDS })
  kind: DashboardQueueKind;

  @ApiProperty({ type: 'integer', minimum: 0 })
  count: number;

  @ApiProperty({ type: [DashboardQueueItemDto], maxItems: 5, description: 'The latest few, newest first' })
  latest: DashboardQueueItemDto[];
}

export class DashboardSummaryDto implements DashboardSummary {
  @ApiProperty({ type: 'integer', minimum: 0 })
  activeSubscriptions: number;

  @ApiProperty({ type: MoneyComparisonDto, description: 'Subscription payments less refunds' })
  revenue: MoneyComparisonDto;

  @ApiProperty({ type: MoneyComparisonDto, description: 'Deposits, balance corrections left out' })
  deposits: MoneyComparisonDto;

  @ApiProperty({ type: CountComparisonDto, description: 'Subscriptions created, trials included' })
  newSubscriptions: CountComparisonDto;

  @ApiProperty({ type: 'integer', minimum: 0 })
  renewalsDueThisWeek: number;

  @ApiProperty({
    type: [DashboardDayDto],
    minItems: 30,
    maxItems: 30,
    description: 'The last 30 UTC days, oldest first, today last',
  })
  daily: DashboardDayDto[];

  @SignedAmountProperty({
    minimum: 0,
    description: 'What the funded voucher batches still owe now (the balance of liability:vouchers), US dollars',
  })
  voucherLiability: number;

  @ApiProperty({ type: DashboardDiscountsDto, description: 'Given away this calendar month (UTC), US dollars' })
  discountsThisMonth: DashboardDiscountsDto;

  @ApiProperty({
    type: [DashboardQueueGroupDto],
    minItems: 4,
    maxItems: 4,
    description: 'What needs a person: one group per kind, in the order of the kind enum',
  })
  queue: DashboardQueueGroupDto[];
}
