import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DEPOSIT_CLAIM_STATUSES,
  type DepositClaim,
  type DepositClaimStatus,
  type CardCheckoutResponse,
  CARD_PROVIDER_STATUSES,
  CARD_PROVIDERS,
  type CardProvider,
  type CardProviderStatus,
  type PaymentCard,
  type AccountHistory,
  type AccountHolder,
  type AccountStatement,
  type BalanceAtInstant,
  type Language,
  LANGUAGES,
  type StatementLine,
  AMOUNT_MAX,
  CASHIER_PROVIDER_STATUSES,
  CASHIER_PROVIDERS,
  type CashierProvider,
  type CashierProviderStatus,
  DEPOSIT_PURCHASE_KINDS,
  DEPOSIT_PURCHASE_STATUSES,
  type DepositPurchase,
  type DepositPurchaseKind,
  type DepositPurchaseStatus,
  type ErrorCode,
  type PaymentCashier,
  CURRENCIES,
  type CryptoDepositResponse,
  type Currency,
  type LedgerEntry,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  type PaidSubscription,
  type PaymentPromoCode,
  type Payment,
  type TransferRecipient,
  type PaymentAggregator,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
  PATTERNS,
  LIMITS,
  PUBLIC_STAFF_ACTOR_NAME,
  SYSTEM_ACTOR_NAME,
} from '@kupa/proto';
import { AMOUNT_SCHEMA, InstantProperty, PageOf, SignedAmountProperty } from '../../../platform/http';

/** The ledger answers as OpenAPI schemas; the shapes themselves are proto's payload types, which these implement. */

const PAYMENT_ID = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const PROFILE_ID = { type: 'string', nullable: true, pattern: PATTERNS.profileId.source } as const;

export class PaymentCashierDto implements PaymentCashier {
  @ApiProperty({ enum: CASHIER_PROVIDERS })
  provider: CashierProvider;

  @ApiProperty({ description: "The cashier's invoice" })
  invoiceId: string;

  @ApiProperty({ format: 'uri', description: 'The invoice page the client pays on' })
  invoiceUrl: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The cashier's payment on the invoice, once it reported one",
  })
  providerPaymentId: string | null;

  @ApiProperty({ enum: CASHIER_PROVIDER_STATUSES, nullable: true, description: "The cashier's last reported status" })
  providerStatus: CashierProviderStatus | null;

  @ApiProperty({ description: 'The coin the client pays in, as the cashier names it', example: 'usdttrc20' })
  payCurrency: string;

  @ApiProperty({ ...AMOUNT_SCHEMA, description: 'Dollars the invoice asked for' })
  amountAsked: number;

  @ApiProperty({
    type: 'number',
    minimum: 0,
    description: "Dollars that arrived and were credited, at the invoice's rate (more or less than asked is kept)",
  })
  amountReceived: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'Dollars reported above the per-payment maximum and held for staff, not credited (the payment is REVIEW); ' +
      'null otherwise',
  })
  amountHeld: number | null;
}

export class PaymentCardDto implements PaymentCard {
  @ApiProperty({ enum: CARD_PROVIDERS })
  provider: CardProvider;

  @ApiProperty({ description: "The card provider's checkout session" })
  checkoutSessionId: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The card provider's payment (Stripe's payment intent), once it reported one",
  })
  providerPaymentId: string | null;

  @ApiProperty({ enum: CARD_PROVIDER_STATUSES, description: 'Where the checkout stands at the provider' })
  providerStatus: CardProviderStatus;

  @ApiProperty({ ...AMOUNT_SCHEMA, description: 'Dollars the checkout asked for' })
  amountAsked: number;

  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: { currency: { type: 'string', nullable: true }, amount: { type: 'number' } },
    description:
      'A paid checkout whose currency or amount was not what was asked, as the provider reported it (the payment is ' +
      'REVIEW and nothing was credited); null otherwise',
  })
  reported: { currency: string | null; amount: number } | null;

  @ApiProperty({ type: 'number', minimum: 0, description: 'Dollars that arrived and were credited' })
  amountReceived: number;
}

export class DepositPurchaseDto implements DepositPurchase {
  @ApiProperty({ enum: DEPOSIT_PURCHASE_KINDS, description: 'BUY a new subscription, or RENEW one' })
  kind: DepositPurchaseKind;

  @ApiProperty({ format: 'uuid' })
  paymentPlanId: string;

  @ApiProperty({ description: "The package's name when the deposit was opened" })
  planName: string;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'RENEW: the subscription renewed. BUY: the new subscription once DONE, null before',
  })
  subscriptionId: string | null;

  @ApiProperty({
    enum: DEPOSIT_PURCHASE_STATUSES,
    description:
      'WAITING for the money; DONE; FAILED: the money arrived and stays on the balance, but the purchase could not follow',
  })
  status: DepositPurchaseStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'error.plan.no.longer.available',
    description: 'Why a FAILED purchase failed, e.g. `error.plan.no.longer.available`; null otherwise',
  })
  errorCode: ErrorCode | null;
}

export class PaidSubscriptionDto implements PaidSubscription {
  @ApiProperty({ format: 'uuid' })
  subscriptionId: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The package's name when the subscription was bought; null for a subscription of no package",
  })
  planName: string | null;
}

export class PaymentPromoCodeDto implements PaymentPromoCode {
  @ApiProperty({ type: 'string', description: 'The promo code the payment used' })
  code: string;

  @SignedAmountProperty({ minimum: 0, description: 'Dollars the code took off the list price' })
  discount: number;
}

export class PaymentDto implements Payment {
  @ApiProperty(PAYMENT_ID)
  paymentId: number;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ format: 'email' })
  userEmail: string;

  @ApiProperty({ ...AMOUNT_SCHEMA, maximum: AMOUNT_MAX })
  amount: number;

  @ApiProperty({ enum: CURRENCIES })
  currency: Currency;

  @ApiProperty({ enum: PAYMENT_STATUSES })
  status: PaymentStatus;

  @ApiProperty({ enum: PAYMENT_METHODS })
  method: PaymentMethod;

  @ApiProperty({ enum: PAYMENT_TYPES })
  type: PaymentType;

  @ApiProperty({ enum: PAYMENT_AGGREGATORS })
  aggregator: PaymentAggregator;

  @ApiProperty({
    type: 'string',
    nullable: true,
    required: false,
    description: "Staff only: the internal reason staff recorded. A customer's answers leave the field out",
  })
  comment?: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: LIMITS.publicNoteMaxLength,
    description: 'What staff chose to tell the client with the booking or the latest status change',
  })
  publicNote: string | null;

  @ApiProperty({ ...PROFILE_ID, description: 'Transfers: the sender' })
  senderProfileId: string | null;

  @ApiProperty({ ...PROFILE_ID, description: 'Transfers: the recipient' })
  recipientProfileId: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 99,
    description: 'The referral discount of a SUBSCRIPTION_PAYMENT, in percent; 0 otherwise',
  })
  discountPercent: number;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: "Shared by a transfer's TRANSFER_OUT and TRANSFER_IN",
  })
  transferId: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'On a deposit that earned an ambassador bonus: that AMBASSADOR_BONUS payment',
  })
  bonusPaymentId: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'On an AMBASSADOR_BONUS payment: the deposit that earned it',
  })
  bonusForPaymentId: number | null;

  @InstantProperty()
  createdAt: string;

  @ApiProperty({
    description: `Who booked it. Staff read the actor's e-mail (or ${SYSTEM_ACTOR_NAME}); the payment's owner reads their own e-mail, a transfer sender's profile ID, or ${PUBLIC_STAFF_ACTOR_NAME} for staff and the system`,
  })
  createdBy: string;

  @InstantProperty()
  updatedAt: string;

  @ApiProperty({ description: 'Who changed it last, told as `createdBy` is' })
  updatedBy: string;

  @ApiProperty({
    type: PaymentCashierDto,
    nullable: true,
    description: "A crypto deposit's invoice, the cashier's payment and the amounts asked and received; null otherwise",
  })
  cashier: PaymentCashier | null;

  @ApiProperty({
    type: PaymentCardDto,
    nullable: true,
    description: "A card deposit's checkout, the provider's payment and the amounts asked and received; null otherwise",
  })
  card: PaymentCard | null;

  @ApiProperty({
    type: DepositPurchaseDto,
    nullable: true,
    description:
      'On a deposit made to buy or renew a package (crypto or card): what follows once the money arrives, and how it went; null otherwise',
  })
  purchase: DepositPurchase | null;

  @ApiPropertyOptional({
    type: PaidSubscriptionDto,
    description:
      'On a SUBSCRIPTION_PAYMENT and the REFUND of one: the subscription and its package as bought; left out otherwise',
  })
  paidFor?: PaidSubscription;

  @ApiPropertyOptional({
    type: PaymentPromoCodeDto,
    description: 'On a SUBSCRIPTION_PAYMENT that used a promo code: the code and its discount; left out otherwise',
  })
  promoCode?: PaymentPromoCode;

  @ApiPropertyOptional({
    type: 'integer',
    description:
      'A SUBSCRIPTION_PAYMENT staff refunded to the balance: the REFUND payment that did it; left out otherwise',
  })
  refundedByPaymentId?: number;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description:
      "GET /payments/{id} of a transfer: the other side's first and last name, read now; null when no account answers. " +
      'Never an e-mail or an id',
  })
  counterpartyName?: string | null;
}

export class CryptoDepositResponseDto implements CryptoDepositResponse {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The PENDING deposit, credited when the money arrives' })
  paymentId: number;

  @ApiProperty({ format: 'uri', description: "The cashier's invoice page; it ends with the invoice id" })
  invoiceUrl: string;
}

/** A card deposit's checkout (a purchase's, ADR 0029, or a top-up's, ADR 0082): the payment and the hosted page. */
export class CardCheckoutResponseDto implements CardCheckoutResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The PENDING card deposit, credited when the money arrives',
  })
  paymentId: number;

  @ApiProperty({ format: 'uri', description: "The card provider's hosted checkout page" })
  url: string;
}

export const PaymentPageDto = PageOf(PaymentDto);

export class AccountHolderDto implements AccountHolder {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty()
  fullName: string;

  @ApiProperty()
  email: string;
}

export class TransferRecipientDto implements TransferRecipient {
  @ApiProperty({ description: "The recipient's first and last name as registered", example: 'Dana Cohen' })
  fullName: string;

  @ApiProperty({
    description: 'The first character of the local part and of the domain, then the domain from its first dot',
    example: 'd***@e***.co.il',
  })
  maskedEmail: string;
}

export class LedgerEntryDto implements LedgerEntry {
  @ApiProperty({ format: 'uuid' })
  transactionId: string;

  @ApiProperty({ ...PAYMENT_ID, nullable: true })
  paymentId: number | null;

  @ApiProperty({ example: 'user:7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e' })
  account: string;

  @ApiProperty({ example: 'world:manual' })
  counterAccount: string;

  @ApiProperty({
    type: AccountHolderDto,
    nullable: true,
    description: 'Who the counter-account belongs to when it is a user account; null for system accounts',
  })
  counterAccountHolder: AccountHolderDto | null;

  @SignedAmountProperty({ description: 'US dollars: positive credits the account, negative debits it' })
  amount: number;

  @SignedAmountProperty({ description: "The account's balance after this posting" })
  balanceAfter: number;

  @InstantProperty()
  occurredAt: string;

  @ApiProperty({ example: 'ManualDepositRecorded' })
  eventType: string;
}

export class AccountHistoryDto implements AccountHistory {
  @ApiProperty()
  account: string;

  @ApiProperty({
    type: AccountHolderDto,
    nullable: true,
    description: 'Who the account belongs to when it is a user account; null for system accounts',
  })
  holder: AccountHolderDto | null;

  @InstantProperty()
  asOf: string;

  @SignedAmountProperty({ description: "The account's balance at `asOf`" })
  balance: number;

  @ApiProperty({ type: PageOf(LedgerEntryDto) })
  entries: AccountHistory['entries'];
}

export class StatementLineDto implements StatementLine {
  @InstantProperty()
  occurredAt: string;

  @ApiProperty({ ...PAYMENT_ID, nullable: true, description: "The client's own payment the posting belongs to" })
  paymentId: number | null;

  @ApiProperty({
    example: 'TransferReceived',
    description: 'The event that booked the posting, as the side the client is on',
  })
  eventType: string;

  @ApiProperty({
    example: 'Payment #12: manual deposit',
    description: "The activity log's sentence of that event, in the statement's language",
  })
  description: string;

  @SignedAmountProperty({ description: "US dollars from the client's side: positive reached the balance" })
  amount: number;

  @SignedAmountProperty({ description: 'The balance right after this posting' })
  balanceAfter: number;
}

export class AccountStatementDto implements AccountStatement {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ example: 'user:7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e' })
  account: string;

  @InstantProperty({ description: 'The period starts here, included' })
  from: string;

  @InstantProperty({ description: 'The period ends here, left out' })
  to: string;

  @ApiProperty({ enum: LANGUAGES, description: "The language of the descriptions: Accept-Language, else the holder's" })
  language: Language;

  @SignedAmountProperty({ description: 'The balance at `from`: every posting booked before it' })
  openingBalance: number;

  @SignedAmountProperty({ description: 'The balance at `to`: the opening balance and every line' })
  closingBalance: number;

  @SignedAmountProperty({ minimum: 0, description: 'What reached the balance in the period' })
  creditsTotal: number;

  @SignedAmountProperty({ minimum: 0, description: 'What left the balance in the period, as a positive amount' })
  debitsTotal: number;

  @ApiProperty({ type: [StatementLineDto], maxItems: LIMITS.statementPostingsMax, description: 'Oldest first' })
  lines: StatementLineDto[];
}

export class BalanceAtInstantDto implements BalanceAtInstant {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @InstantProperty()
  at: string;

  @SignedAmountProperty({ description: 'The balance the ledger held at `at`, postings at that instant included' })
  balance: number;
}

/** A manual-transfer claim (ADR 0112). */
export class DepositClaimDto implements DepositClaim {
  @ApiProperty({ format: 'uuid' })
  claimId: string;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ ...AMOUNT_SCHEMA, description: 'Dollars the client says they sent' })
  amount: number;

  @ApiProperty({ enum: ['USD'] })
  currency: 'USD';

  @ApiProperty({ description: "The client's profile ID, the transfer's reference" })
  reference: string;

  @ApiProperty({ type: 'string', nullable: true })
  note: string | null;

  @ApiProperty({ enum: DEPOSIT_CLAIM_STATUSES })
  status: DepositClaimStatus;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The manual deposit that settled it' })
  paymentId: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why staff rejected it' })
  reasonText: string | null;

  @ApiProperty({ format: 'date-time' })
  claimedAt: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  closedAt: string | null;

  @ApiPropertyOptional({ description: "Staff only: the client's name" })
  clientName?: string;
}
