import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CURRENCIES,
  type Currency,
  LIMITS,
  PLAN_PRICE_MAX,
  RENEWAL_FUNDINGS,
  type RenewalFunding,
  type Subscription,
  type SubscriptionConnect,
  SUBSCRIPTION_EXTENSION_SOURCES,
  type SubscriptionExtensionNote,
  type SubscriptionExtensionSource,
  type SubscriptionVoucherNote,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kupa/proto';
import { AMOUNT_SCHEMA, InstantProperty, PageOf } from '../../../platform/http';

/** The subscriptions context's answers as OpenAPI schemas; the shapes themselves are proto's payload types. */

export class SubscriptionPlanRefDto {
  @ApiProperty({ format: 'uuid' })
  planId: string;

  @ApiProperty({ maxLength: LIMITS.planNameMaxLength })
  planName: string;
}

export class SubscriptionConnectDto implements SubscriptionConnect {
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: "The streaming service's site" })
  siteUrl: string | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Its iPhone and iPad app' })
  iosAppUrl: string | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Its Android app' })
  androidAppUrl: string | null;
}

export class SubscriptionExtensionNoteDto implements SubscriptionExtensionNote {
  @ApiProperty({ type: 'integer', minimum: 1 })
  days: number;

  @ApiProperty({ description: "Why, in the words chosen for the client; VOUCHER: the day voucher's label" })
  reason: string;

  @ApiProperty({ enum: SUBSCRIPTION_EXTENSION_SOURCES })
  source: SubscriptionExtensionSource;

  @InstantProperty({ description: 'The end date the days made' })
  endDate: string;

  @InstantProperty()
  extendedAt: string;
}

export class SubscriptionVoucherNoteDto implements SubscriptionVoucherNote {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The first period, in days' })
  days: number;

  @ApiProperty({ description: "The day voucher batch's label" })
  label: string;
}

export class SubscriptionDto implements Subscription {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty()
  userEmail: string;

  @ApiProperty({ type: SubscriptionPlanRefDto, nullable: true, description: 'Null for a trial' })
  paymentPlan: SubscriptionPlanRefDto | null;

  @ApiProperty({
    ...AMOUNT_SCHEMA,
    exclusiveMinimum: false,
    maximum: PLAN_PRICE_MAX,
    description: 'US dollars, after any referral discount; 0 for a trial',
  })
  price: number;

  @ApiProperty({ enum: CURRENCIES })
  currency: Currency;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  status: SubscriptionStatus;

  @ApiProperty({ enum: SUBSCRIPTION_TYPES })
  type: SubscriptionType;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 12, description: '0 for a trial (three days)' })
  durationInMonth: number;

  @ApiProperty()
  isRecurrent: boolean;

  @ApiProperty()
  cancelAtPeriodEnd: boolean;

  @InstantProperty({ nullable: true, description: 'When the automatic renewal charges the balance' })
  nextPaymentDate: string | null;

  @ApiProperty({ enum: RENEWAL_FUNDINGS, description: 'How the automatic renewal is paid (BALANCE unless chosen)' })
  renewalFunding: RenewalFunding;

  @ApiProperty({ minLength: LIMITS.subscriptionLoginMinLength, maxLength: LIMITS.subscriptionLoginMaxLength })
  login: string;

  @InstantProperty({ nullable: true, description: 'Null while PENDING' })
  startDate: string | null;

  @InstantProperty({ nullable: true, description: 'Null while PENDING' })
  endDate: string | null;

  @InstantProperty({
    nullable: true,
    description: 'GRACE only: until when renewing brings it back with the same login; then it ends EXPIRED',
  })
  graceEndsAt: string | null;

  @InstantProperty()
  createdAt: string;

  @ApiProperty()
  createdBy: string;

  @InstantProperty()
  updatedAt: string;

  @ApiProperty()
  updatedBy: string;

  @ApiPropertyOptional({
    type: SubscriptionConnectDto,
    description:
      'GET /subscriptions/{id} only: how to reach the streaming service (STREAMING_* settings); left out when none is set',
  })
  connect?: SubscriptionConnect;

  @ApiPropertyOptional({
    type: [SubscriptionExtensionNoteDto],
    description:
      'GET /subscriptions/{id} only: days added without a payment, oldest first, never who added them; left out when none',
  })
  extensions?: SubscriptionExtensionNote[];

  @ApiPropertyOptional({
    type: SubscriptionVoucherNoteDto,
    description:
      'GET /subscriptions/{id} only: the day voucher it was started with (price 0); left out for one that was bought',
  })
  startedByVoucher?: SubscriptionVoucherNote;
}

export const SubscriptionPageDto = PageOf(SubscriptionDto);
