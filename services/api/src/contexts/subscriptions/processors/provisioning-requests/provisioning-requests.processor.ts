import type { EntityManager } from 'typeorm';
import type { Clock } from '../../../../platform/clock';
import type { EventStore, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import type { Processor } from '../../../../platform/projections';
import { activationSetsAccountExpiry, firstPeriodEnd } from '../../domain/first-period';
import type { SubscriptionEvent } from '../../domain/subscription.events';
import { enqueueProvisioning, type ProvisioningWork } from '../../infrastructure/provisioning/provisioning-jobs';

export const PROVISIONING_REQUESTS_PROCESSOR = 'subscription-provisioning';

/**
 * Turns the subscription events that concern the streaming service into provisioning jobs, in the transaction that
 * moves this processor's checkpoint (docs/adr/0025-provisioning.md): a purchase or trial creates the account expiring
 * one first period after the purchase, an activation whose period counts from itself (a late one, ADR 0136) and each
 * renewal set its expiry to the subscription's end date, a login or password change is passed
 * on, and the end of a subscription disables the account, as does its lapse into the grace window (ADR 0081: the
 * account is kept, disabled, and a renewal's expiry makes it ACTIVE again). The causing event's position keys each job, so a batch
 * handled twice asks once; a subscription's jobs run in the order asked, so a rename reaches the service after the
 * account it renames.
 */
export class ProvisioningRequestsProcessor implements Processor {
  readonly name = PROVISIONING_REQUESTS_PROCESSOR;
  readonly handles = [
    'SubscriptionPurchased',
    'SubscriptionActivated',
    'SubscriptionRenewed',
    'SubscriptionExtended',
    'SubscriptionLoginChanged',
    'SubscriptionPasswordChanged',
    'SubscriptionEnded',
    'SubscriptionLapsed',
  ] as const;

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async handle(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as SubscriptionEvent;
      const work = await this.workFor(event, recorded);
      if (!work) continue;
      await enqueueProvisioning(
        manager,
        { ...work, subscriptionId: event.data.subscriptionId, causationEventId: recorded.eventId },
        now,
      );
    }
  }

  private async workFor(event: SubscriptionEvent, recorded: RecordedEvent): Promise<ProvisioningWork | null> {
    switch (event.type) {
      case 'SubscriptionPurchased': {
        // One first period from the purchase: the activation keeps this end when the account comes promptly (ADR
        // 0136), and otherwise moves it with a job of its own.
        const expiresAt = firstPeriodEnd(
          {
            durationInMonths: event.data.durationInMonths,
            trialDays: event.data.trialDays,
            voucherDays: event.data.voucher?.days ?? null,
          },
          new Date(event.data.purchasedAt),
        );
        return {
          operation: 'CREATE_ACCOUNT',
          parameters: {
            login: event.data.login,
            expiresAt: expiresAt.toISOString(),
            secretVersion: recorded.streamVersion,
          },
        };
      }
      case 'SubscriptionActivated':
        if (!activationSetsAccountExpiry(event.data)) return null;
        return {
          operation: 'EXTEND_ACCOUNT',
          parameters: { login: await this.loginAt(recorded), expiresAt: event.data.endDate },
        };
      case 'SubscriptionRenewed':
      case 'SubscriptionExtended':
        return {
          operation: 'EXTEND_ACCOUNT',
          parameters: { login: await this.loginAt(recorded), expiresAt: event.data.endDate },
        };
      case 'SubscriptionLoginChanged':
        return {
          operation: 'CHANGE_LOGIN',
          parameters: { login: event.data.previousLogin, newLogin: event.data.login },
        };
      case 'SubscriptionPasswordChanged':
        return {
          operation: 'CHANGE_PASSWORD',
          parameters: { login: await this.loginAt(recorded), secretVersion: recorded.streamVersion },
        };
      case 'SubscriptionEnded':
      case 'SubscriptionLapsed':
        return { operation: 'DISABLE_ACCOUNT', parameters: { login: await this.loginAt(recorded) } };
      default:
        return null;
    }
  }

  /** The login as it was when the event happened: later renames have jobs of their own, queued after this one. */
  private async loginAt(recorded: RecordedEvent): Promise<string> {
    const history = await this.store.readStream(recorded.streamId);
    let login: string | null = null;
    for (const earlier of history) {
      if (earlier.streamVersion > recorded.streamVersion) break;
      const event = { type: earlier.type, data: earlier.data } as SubscriptionEvent;
      if (event.type === 'SubscriptionPurchased') login = event.data.login;
      if (event.type === 'SubscriptionLoginChanged') login = event.data.login;
    }
    if (login === null)
      throw new Error(`Stream ${recorded.streamId} has no purchase before version ${recorded.streamVersion}`);
    return login;
  }
}
