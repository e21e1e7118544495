import { Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { CardProvider } from '../../platform/card-provider';
import { Clock } from '../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { EventStore, EventTypeRegistry } from '../../platform/event-store';
import { MailDispatcher } from '../../platform/mail';
import { Schedules } from '../../platform/jobs';
import { InlineProjectionRegistry, ProcessorRunner } from '../../platform/projections';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { PlanReferences } from '../catalog';
import { ReferralStandings, UserReader } from '../identity';
import {
  CardDepositCheckouts,
  DayVoucherSubscriptions,
  DepositPurchaseDetails,
  SubscriptionPaymentDetails,
} from '../ledger';
import { ClientSubscriptions, StaffAlerts } from '../notifications';
import { DayVoucherRedemptions } from './application/day-voucher-redemptions';
import { CardCheckouts } from './application/card-checkout.service';
import { DepositPurchaseFlow } from './application/deposit-purchase.service';
import { DepositPurchaseReader } from './application/deposit-purchase-reader';
import { SubscriptionParties } from './application/subscription-parties';
import { ActivateSubscriptionHandler } from './commands/activate-subscription/activate-subscription.handler';
import { CompleteDepositPurchaseHandler } from './commands/complete-deposit-purchase/complete-deposit-purchase.handler';
import { EndSubscriptionHandler } from './commands/end-subscription/end-subscription.handler';
import { FailProvisioningHandler } from './commands/fail-provisioning/fail-provisioning.handler';
import { RecordRenewalFailureHandler } from './commands/record-renewal-failure/record-renewal-failure.handler';
import { SettleCardPaymentHandler } from './commands/settle-card-payment/settle-card-payment.handler';
import { BuySubscriptionController } from './commands/buy-subscription/buy-subscription.controller';
import { BuySubscriptionHandler } from './commands/buy-subscription/buy-subscription.handler';
import { RefundPaymentToBalanceController } from './commands/refund-payment-to-balance/refund-payment-to-balance.controller';
import { RefundPaymentToBalanceHandler } from './commands/refund-payment-to-balance/refund-payment-to-balance.handler';
import { CancelSubscriptionController } from './commands/cancel-subscription/cancel-subscription.controller';
import { CancelSubscriptionHandler } from './commands/cancel-subscription/cancel-subscription.handler';
import { ExtendSubscriptionController } from './commands/extend-subscription/extend-subscription.controller';
import { ExtendSubscriptionHandler } from './commands/extend-subscription/extend-subscription.handler';
import { SubscriptionExtensions } from './application/subscription-extensions';
import { SubscriptionSelection } from './application/subscription-selection';
import { ResumeSubscriptionController } from './commands/resume-subscription/resume-subscription.controller';
import { ResumeSubscriptionHandler } from './commands/resume-subscription/resume-subscription.handler';
import { ChangeSubscriptionLoginController } from './commands/change-subscription-login/change-subscription-login.controller';
import { ChangeSubscriptionLoginHandler } from './commands/change-subscription-login/change-subscription-login.handler';
import { ChangeSubscriptionPasswordController } from './commands/change-subscription-password/change-subscription-password.controller';
import { ChangeSubscriptionPasswordHandler } from './commands/change-subscription-password/change-subscription-password.handler';
import { CreateCardCheckoutController } from './commands/create-card-checkout/create-card-checkout.controller';
import { CreateCardCheckoutHandler } from './commands/create-card-checkout/create-card-checkout.handler';
import { ReceiveCardWebhookController } from './commands/receive-card-webhook/receive-card-webhook.controller';
import { ReceiveCardWebhookHandler } from './commands/receive-card-webhook/receive-card-webhook.handler';
import { DepositAndBuySubscriptionController } from './commands/deposit-and-buy-subscription/deposit-and-buy-subscription.controller';
import { DepositAndBuySubscriptionHandler } from './commands/deposit-and-buy-subscription/deposit-and-buy-subscription.handler';
import { DepositAndRenewSubscriptionController } from './commands/deposit-and-renew-subscription/deposit-and-renew-subscription.controller';
import { DepositAndRenewSubscriptionHandler } from './commands/deposit-and-renew-subscription/deposit-and-renew-subscription.handler';
import { DeactivateRecurrenceController } from './commands/deactivate-recurrence/deactivate-recurrence.controller';
import { DeactivateRecurrenceHandler } from './commands/deactivate-recurrence/deactivate-recurrence.handler';
import { RenewSubscriptionController } from './commands/renew-subscription/renew-subscription.controller';
import { RenewSubscriptionHandler } from './commands/renew-subscription/renew-subscription.handler';
import { TakeTrialController } from './commands/take-trial/take-trial.controller';
import { TakeTrialHandler } from './commands/take-trial/take-trial.handler';
import { ALL_SUBSCRIPTION_EVENT_TYPES } from './domain/subscription.events';
import { ReferralDiscounts } from './application/referral-discounts';
import { SubscriptionReferralStandings } from './infrastructure/referral-standings';
import { SubscriptionPlanReferences } from './infrastructure/subscription-plan-references';
import { CurrentClientSubscriptions } from './infrastructure/client-subscriptions';
import { SubscriptionSecrets } from './infrastructure/subscription-secrets';
import { CardJanitor } from './processors/card-janitor/card-janitor.sweep';
import { DepositPurchasesProcessor } from './processors/deposit-purchases/deposit-purchases.processor';
import { ProvisioningRequestsProcessor } from './processors/provisioning-requests/provisioning-requests.processor';
import { SubscriptionMails } from './processors/subscription-mails/subscription-mails';
import { SubscriptionMailsProcessor } from './processors/subscription-mails/subscription-mails.processor';
import { SubscriptionRenewalsSweep } from './processors/subscription-renewals/subscription-renewals.sweep';
import { RenewalRemindersSweep } from './processors/renewal-reminders/renewal-reminders.sweep';
import { SubscriptionReader } from './projections/subscriptions/subscription-reader';
import { SubscriptionsProjection } from './projections/subscriptions/subscriptions.projection';
import { SubscriptionDepositPurchaseDetails } from './projections/deposit-purchases/deposit-purchase-details';
import {
  SubscriptionPaymentsProjection,
  SubscriptionPaymentsTable,
} from './projections/subscription-payments/subscription-payments.projection';
import { DepositPurchasesProjection } from './projections/deposit-purchases/deposit-purchases.projection';
import { GetSubscriptionController } from './queries/get-subscription/get-subscription.controller';
import { GetSubscriptionHandler } from './queries/get-subscription/get-subscription.handler';
import { SearchSubscriptionsController } from './queries/search-subscriptions/search-subscriptions.controller';
import { SearchSubscriptionsHandler } from './queries/search-subscriptions/search-subscriptions.handler';
import { SUBSCRIPTIONS_AUDIT_MAPPERS } from './subscriptions.audit';
import { SAVED_CARD_EVENT_TYPES } from '@kupa/proto';
import { SavedCards } from './application/saved-cards';
import { CardRenewals } from './application/card-renewals';
import { ChooseRenewalFundingController } from './commands/choose-renewal-funding/choose-renewal-funding.controller';
import { ChooseRenewalFundingHandler } from './commands/choose-renewal-funding/choose-renewal-funding.handler';
import { RemoveSavedCardController } from './commands/remove-saved-card/remove-saved-card.controller';
import { RemoveSavedCardHandler } from './commands/remove-saved-card/remove-saved-card.handler';
import { StartCardSetupController } from './commands/start-card-setup/start-card-setup.controller';
import { StartCardSetupHandler } from './commands/start-card-setup/start-card-setup.handler';
import { GetSavedCardController } from './queries/get-saved-card/get-saved-card.controller';
import { GetSavedCardHandler } from './queries/get-saved-card/get-saved-card.handler';
import { SAVED_CARD_AUDIT_MAPPERS } from './saved-cards.audit';
import { PROMO_CODE_EVENT_TYPES } from '@kupa/proto';
import { PromoCodes } from './application/promo-codes';
import { CreatePromoCodeController } from './commands/create-promo-code/create-promo-code.controller';
import { CreatePromoCodeHandler } from './commands/create-promo-code/create-promo-code.handler';
import { DisablePromoCodeController } from './commands/disable-promo-code/disable-promo-code.controller';
import { DisablePromoCodeHandler } from './commands/disable-promo-code/disable-promo-code.handler';
import { PROMO_CODE_AUDIT_MAPPERS } from './promo-codes.audit';
import { PromoCodesProjection } from './projections/promo-codes/promo-codes.projection';
import { PromoCodeQuotes } from './queries/promo-codes/promo-code-quotes';
import { PromoCodeHoldsController } from './queries/promo-code-holds/promo-code-holds.controller';
import { PromoCodesController } from './queries/promo-codes/promo-codes.controller';

/**
 * Subscriptions (docs/product.md, Subscriptions; docs/adr/0024-subscriptions.md): `subscription-{uuid}` streams, their
 * read model, and the commands that buy, renew, cancel and change them, with the ledger's charge in the same append.
 * Global because it binds ports other contexts declare and inject without importing it: the catalog's
 * `PlanReferences`, identity's `ReferralStandings` and the notifications' `ClientSubscriptions` for the bot
 * (ADR 0013, ADR 0021, ADR 0103). Each command is a slice under
 * `commands/` (ADR 0070); the processors (provisioning, the renewal and expiry sweep, deposit purchases, the card
 * janitor) run the same commands through the `CommandBus`, as the routes do.
 */
@Global()
@Module({
  // Literal paths before `:id`, so that `/subscriptions/search` is never read as an id.
  controllers: [
    SearchSubscriptionsController,
    BuySubscriptionController,
    RenewSubscriptionController,
    TakeTrialController,
    DeactivateRecurrenceController,
    GetSubscriptionController,
    CancelSubscriptionController,
    RefundPaymentToBalanceController,
    ResumeSubscriptionController,
    ExtendSubscriptionController,
    ChangeSubscriptionLoginController,
    ChangeSubscriptionPasswordController,
    // Under /payments/crypto: deposits that buy or renew (docs/adr/0030-deposit-and-buy.md).
    DepositAndBuySubscriptionController,
    CreateCardCheckoutController,
    ReceiveCardWebhookController,
    DepositAndRenewSubscriptionController,
    // Saved cards and the renewal funding choice (docs/adr/0085-saved-cards.md).
    GetSavedCardController,
    StartCardSetupController,
    RemoveSavedCardController,
    ChooseRenewalFundingController,
    // Promo codes (docs/adr/0088-promo-codes.md).
    PromoCodesController,
    PromoCodeHoldsController,
    CreatePromoCodeController,
    DisablePromoCodeController,
  ],
  providers: [
    SubscriptionReader,
    SubscriptionSecrets,
    SubscriptionParties,
    DepositPurchaseFlow,
    DepositPurchaseReader,
    CardCheckouts,
    SubscriptionReferralStandings,
    ReferralDiscounts,
    SubscriptionMails,
    { provide: ReferralStandings, useExisting: SubscriptionReferralStandings },
    { provide: PlanReferences, useClass: SubscriptionPlanReferences },
    { provide: ClientSubscriptions, useClass: CurrentClientSubscriptions },
    { provide: DepositPurchaseDetails, useClass: SubscriptionDepositPurchaseDetails },
    { provide: SubscriptionPaymentDetails, useClass: SubscriptionPaymentsTable },
    { provide: DayVoucherSubscriptions, useClass: DayVoucherRedemptions },
    BuySubscriptionHandler,
    RenewSubscriptionHandler,
    TakeTrialHandler,
    CancelSubscriptionHandler,
    RefundPaymentToBalanceHandler,
    ResumeSubscriptionHandler,
    ExtendSubscriptionHandler,
    SubscriptionExtensions,
    SubscriptionSelection,
    ChangeSubscriptionLoginHandler,
    ChangeSubscriptionPasswordHandler,
    DeactivateRecurrenceHandler,
    DepositAndBuySubscriptionHandler,
    CreateCardCheckoutHandler,
    ReceiveCardWebhookHandler,
    DepositAndRenewSubscriptionHandler,
    ActivateSubscriptionHandler,
    EndSubscriptionHandler,
    RecordRenewalFailureHandler,
    FailProvisioningHandler,
    CompleteDepositPurchaseHandler,
    SettleCardPaymentHandler,
    GetSubscriptionHandler,
    SearchSubscriptionsHandler,
    GetSavedCardHandler,
    SavedCards,
    CardRenewals,
    StartCardSetupHandler,
    RemoveSavedCardHandler,
    ChooseRenewalFundingHandler,
    PromoCodes,
    PromoCodeQuotes,
    CreatePromoCodeHandler,
    DisablePromoCodeHandler,
  ],
  exports: [
    PlanReferences,
    ReferralStandings,
    ClientSubscriptions,
    DepositPurchaseDetails,
    SubscriptionPaymentDetails,
    DayVoucherSubscriptions,
    SubscriptionSecrets,
    SubscriptionReader,
    SubscriptionExtensions,
    SubscriptionSelection,
  ],
})
export class SubscriptionsModule implements OnModuleInit {
  constructor(
    private readonly eventTypes: EventTypeRegistry,
    private readonly projections: InlineProjectionRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    private readonly processors: ProcessorRunner,
    private readonly schedules: Schedules,
    private readonly store: EventStore,
    private readonly mailDispatcher: MailDispatcher,
    private readonly mails: SubscriptionMails,
    private readonly commands: CommandBus,
    private readonly discounts: ReferralDiscounts,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly purchaseReader: DepositPurchaseReader,
    private readonly cardProvider: CardProvider,
    private readonly cardCheckouts: CardDepositCheckouts,
    private readonly cardRenewals: CardRenewals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly staffAlerts: StaffAlerts,
  ) {}

  onModuleInit(): void {
    for (const type of ALL_SUBSCRIPTION_EVENT_TYPES) this.eventTypes.register(type);
    this.projections.register(new SubscriptionsProjection());
    this.projections.register(new DepositPurchasesProjection());
    this.projections.register(new SubscriptionPaymentsProjection());
    for (const type of ALL_SUBSCRIPTION_EVENT_TYPES)
      this.auditMappers.register(type, SUBSCRIPTIONS_AUDIT_MAPPERS[type]);
    for (const type of Object.values(SAVED_CARD_EVENT_TYPES)) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, SAVED_CARD_AUDIT_MAPPERS[type]);
    }
    this.projections.register(new PromoCodesProjection());
    for (const type of Object.values(PROMO_CODE_EVENT_TYPES)) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, PROMO_CODE_AUDIT_MAPPERS[type]);
    }
    // A subscription is named by its package as bought, which its purchase entry recorded (and no later event changes);
    // a trial, bought from no package, by its type ("Trial for new users" on screen).
    this.auditNames.registerRecordedName('SUBSCRIPTION', 'planName', { field: 'type', enumName: 'subscriptionType' });
    this.processors.register(new ProvisioningRequestsProcessor(this.store, this.clock));
    // The process manager that buys or renews once a deposit made for it is credited.
    this.processors.register(new DepositPurchasesProcessor(this.purchaseReader, this.commands));
    // Mails to the owner, and the renewal and expiry sweep (processors/).
    this.processors.register(
      new SubscriptionMailsProcessor(
        this.users,
        this.discounts,
        this.purchaseReader,
        this.clock,
        this.config.renewalGraceDays,
        this.staffAlerts,
      ),
    );
    for (const kind of this.mails.kinds()) this.mailDispatcher.registerKind(kind);
    this.schedules.register(
      new SubscriptionRenewalsSweep(
        this.dataSource,
        this.commands,
        this.discounts,
        this.users,
        this.clock,
        this.cardRenewals,
        undefined,
        this.staffAlerts,
      ),
    );
    // The reminders before an automatic renewal the balance will not cover, or an end (ADR 0083).
    this.schedules.register(
      new RenewalRemindersSweep(
        this.dataSource,
        this.discounts,
        this.users,
        this.clock,
        this.config.renewalReminderDays,
      ),
    );
    // Card checkouts whose webhook never came (processors/card-janitor/).
    this.schedules.register(
      new CardJanitor(
        this.dataSource,
        this.cardProvider,
        this.cardCheckouts,
        this.commands,
        this.clock,
        this.config.cardPendingTimeoutMinutes,
        this.config.cardJanitorIntervalMs,
      ),
    );
  }
}
