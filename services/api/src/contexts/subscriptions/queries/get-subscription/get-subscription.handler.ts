import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type {
  Subscription,
  SubscriptionExtendedData,
  SubscriptionExtensionNote,
  SubscriptionPurchasedData,
  SubscriptionVoucherNote,
} from '@kupa/proto';
import { EventStore } from '../../../../platform/event-store';
import { subscriptionStreamId } from '../../domain/subscription.events';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { GetSubscriptionQuery } from './get-subscription.query';

@QueryHandler(GetSubscriptionQuery)
export class GetSubscriptionHandler implements IQueryHandler<GetSubscriptionQuery, Subscription> {
  constructor(
    private readonly reader: SubscriptionReader,
    private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The subscription with how to reach the service it is for, which is the same for every subscription; with nothing
   * configured the answer is the subscription alone, as before there was anything to configure.
   */
  async execute({ actor, subscriptionId }: GetSubscriptionQuery): Promise<Subscription> {
    const subscription = await this.reader.visibleTo(actor, subscriptionId);
    // Left out when there are none, as `connect` is: the answer stays what every other route says of it.
    const events = await this.store.readStream(subscriptionStreamId(subscription.id));
    const extensions = extensionsOf(events);
    const startedByVoucher = voucherOf(events);
    const withVoucher = startedByVoucher === null ? subscription : { ...subscription, startedByVoucher };
    const withExtensions = extensions.length === 0 ? withVoucher : { ...withVoucher, extensions };
    const connect = this.config.streamingConnect;
    return connect === null ? withExtensions : { ...withExtensions, connect };
  }
}

type StreamEvents = Awaited<ReturnType<EventStore['readStream']>>;

/**
 * The days added to the subscription (ADR 0089), read from its own stream, which is short (it is folded whole for
 * every command) and whose event holds exactly what the client is told. Who added them stays out: the client reads
 * the reason only.
 */
function extensionsOf(events: StreamEvents): SubscriptionExtensionNote[] {
  const rows = events
    .filter((event) => event.type === 'SubscriptionExtended')
    .map((event) => ({ data: event.data as SubscriptionExtendedData }));
  return rows.map(({ data }) => ({
    days: data.days,
    reason: data.reason,
    source: data.source,
    endDate: data.endDate,
    extendedAt: data.extendedAt,
  }));
}

/** The day voucher the subscription was started with, from its purchase (ADR 0089); null for one that was bought. */
function voucherOf(events: StreamEvents): SubscriptionVoucherNote | null {
  const purchase = events.find((event) => event.type === 'SubscriptionPurchased');
  const voucher = (purchase?.data as SubscriptionPurchasedData | undefined)?.voucher ?? null;
  return voucher === null ? null : { days: voucher.days, label: voucher.label };
}
