import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Payment, PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { type CommandStamp, type LoadedStream } from '../../../../platform/commands';
import { RewardTiers } from '../../../../platform/config';
import { bookAmbassadorBonus, earnedAmbassadorBonus } from '../../domain/ambassador-bonus';
import type { PaymentEvent, WalletEvent } from '../../domain/ledger.events';
import { customerAuthorLabel } from '../../domain/payment-authors';
import type { PaymentState } from '../../domain/payment.state';
import type { WalletState } from '../../domain/wallet.state';
import { paymentDecider } from '../../domain/payment.decider';
import { manualCounterAccount, walletDecider } from '../../domain/wallet.decider';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import {
  depositClaimStreams,
  nextPaymentIds,
  paymentStreams,
  walletStreams,
} from '../../infrastructure/ledger-streams';
import { paymentPayload } from '../../projections/payments/payment-reader';
import { actorLabelOf } from '../../projections/payments/payments.projection';
import { RecordManualPaymentCommand } from './record-manual-payment.command';
import { assert } from '../../../../kernel';
import { type DepositClaimsState, settleClaim } from '../../domain/deposit-claims.decider';
import type { DepositClaimEvent } from '@kupa/proto';
import { DepositClaimsReader } from '../../projections/deposit-claims/deposit-claims.reader';

export const RECORD_MANUAL_PAYMENT_ROUTE = 'POST /payments';

@CommandHandler(RecordManualPaymentCommand)
export class RecordManualPaymentHandler implements ICommandHandler<RecordManualPaymentCommand, Payment> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
    private readonly tiers: RewardTiers,
    private readonly claims: DepositClaimsReader,
  ) {}

  async execute(command: RecordManualPaymentCommand): Promise<Payment> {
    const { actor, userUuid, action, comment, correction, publicNote, claimId, context } = command;
    // A claim is settled by a real deposit only: a payout or a balance fix says nothing about money that arrived.
    if (claimId !== null && (action !== 'DEPOSIT' || correction))
      throw new ApiError('error.validation.invalid.input', { field: 'claimId' });
    const claim = claimId === null ? null : await this.claims.ownerOf(claimId);
    // Another client's claim names nothing this deposit may settle: 404, as an unknown one.
    if (claimId !== null && claim?.userUuid !== userUuid) throw new ApiError('error.deposit.claim.not.found');
    const amountMinor = command.amountMinor ?? claim?.amountMinor;
    assert(amountMinor !== undefined, 'the DTO requires an amount unless a claim gives it');
    const idempotency = this.keys.request(actor.userUuid, command.idempotencyKey, RECORD_MANUAL_PAYMENT_ROUTE, {
      userUuid,
      amountMinor,
      action,
      comment,
      correction,
      // Only a note that was sent is part of the request, so keys stored before notes existed still match.
      ...(publicNote !== null ? { publicNote } : {}),
      ...(claimId !== null ? { claimId } : {}),
    });
    const known = await this.keys.replayIfKnown<Payment>(idempotency);
    if (known) return known;

    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    // The role is identity's, read before the locks: a bonus is one more payment, whose stream must be named up
    // front. A role changed at the very instant of a deposit may apply to it or not; either is a valid order.
    const earned = earnedAmbassadorBonus(
      { role: user.role, type: action === 'DEPOSIT' ? 'DEPOSIT' : 'WITHDRAW', correction, amountMinor },
      this.tiers.ambassadorBonus,
    );
    const [paymentId, bonusPaymentId] = await nextPaymentIds(this.dataSource.manager, earned ? 2 : 1);

    const decide = (
      wallet: LoadedStream<WalletState>,
      payment: LoadedStream<PaymentState | null>,
      bonus: LoadedStream<PaymentState | null> | null,
      claims: LoadedStream<DepositClaimsState> | null,
      { at, metadata }: CommandStamp,
    ) => {
      const author = actorLabelOf({ metadata });
      const publicAuthor = customerAuthorLabel(metadata.actor, userUuid, null);
      const transactionId = randomUUID();
      const fields = { userUuid, paymentId, amountMinor, correction, reason: comment, transactionId };
      const walletEvents = walletDecider.decide(
        action === 'DEPOSIT' ? { type: 'RecordManualDeposit', ...fields } : { type: 'RecordWithdrawal', ...fields },
        wallet.state,
      );
      let recorded: PaymentRecordedData = {
        paymentId,
        userUuid,
        userEmail: user.email,
        type: action === 'DEPOSIT' ? 'DEPOSIT' : 'WITHDRAW',
        method: 'MANUAL_TRANSFER',
        aggregator: 'MANUAL',
        status: 'SUCCESS',
        amountMinor,
        currency: 'USD',
        comment,
        publicNote,
        counterAccount: manualCounterAccount(correction),
        correction,
        transferId: null,
        senderProfileId: null,
        recipientProfileId: null,
        discountPercent: 0,
        createdAt: at.toISOString(),
        bonusPaymentId: null,
        bonusForPaymentId: null,
      };
      const events: {
        wallet: WalletEvent[];
        payment: PaymentEvent[];
        bonus: PaymentEvent[];
        claims: DepositClaimEvent[];
      } = {
        wallet: walletEvents,
        payment: [],
        bonus: [],
        // Under the claims stream's lock: a claim settled or rejected meanwhile refuses this deposit (409).
        claims: claimId !== null && claims ? settleClaim({ claimId, userUuid, paymentId, at }, claims.state) : [],
      };
      if (earned && bonus) {
        const booked = bookAmbassadorBonus(
          recorded,
          earned,
          { bonusPaymentId, transactionId: randomUUID() },
          walletEvents.reduce(walletDecider.evolve, wallet.state),
        );
        recorded = booked.deposit;
        events.wallet = [...walletEvents, ...booked.walletEvents];
        events.bonus = paymentDecider.decide({ type: 'RecordPayment', payment: booked.bonus }, bonus.state);
      }
      events.payment = paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, payment.state);
      return {
        events,
        result: paymentPayload(
          { ...recorded, updatedAt: recorded.createdAt },
          { createdBy: author, updatedBy: author, createdByPublic: publicAuthor, updatedByPublic: publicAuthor },
          'staff',
        ),
      };
    };

    const wallet = walletStreams.ref(userUuid);
    const payment = paymentStreams.ref(paymentId);
    const claimsRef = depositClaimStreams.ref(userUuid);
    if (!earned) {
      if (claimId !== null)
        return this.commands.run(idempotency, {
          context,
          streams: { wallet, payment, claims: claimsRef },
          decide: (loaded, stamp) => decide(loaded.wallet, loaded.payment, null, loaded.claims, stamp),
        });
      return this.commands.run(idempotency, {
        context,
        streams: { wallet, payment },
        decide: (loaded, stamp) => {
          const { events, result } = decide(loaded.wallet, loaded.payment, null, null, stamp);
          return { events: { wallet: events.wallet, payment: events.payment }, result };
        },
      });
    }
    if (claimId !== null)
      return this.commands.run(idempotency, {
        context,
        streams: { wallet, payment, bonus: paymentStreams.ref(bonusPaymentId), claims: claimsRef },
        decide: (loaded, stamp) => decide(loaded.wallet, loaded.payment, loaded.bonus, loaded.claims, stamp),
      });
    return this.commands.run(idempotency, {
      context,
      streams: { wallet, payment, bonus: paymentStreams.ref(bonusPaymentId) },
      decide: (loaded, stamp) => {
        const { events, result } = decide(loaded.wallet, loaded.payment, loaded.bonus, null, stamp);
        return { events: { wallet: events.wallet, payment: events.payment, bonus: events.bonus }, result };
      },
    });
  }
}
