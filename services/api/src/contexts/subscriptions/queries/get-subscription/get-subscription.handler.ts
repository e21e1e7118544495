import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { GetSubscriptionQuery } from './get-subscription.query';

@QueryHandler(GetSubscriptionQuery)
export class GetSubscriptionHandler implements IQueryHandler<GetSubscriptionQuery, Subscription> {
  constructor(
    private readonly reader: SubscriptionReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The subscription with how to reach the service it is for, which is the same for every subscription; with nothing
   * configured the answer is the subscription alone, as before there was anything to configure.
   */
  async execute({ actor, subscriptionId }: GetSubscriptionQuery): Promise<Subscription> {
    const subscription = await this.reader.visibleTo(actor, subscriptionId);
    const connect = this.config.streamingConnect;
    return connect === null ? subscription : { ...subscription, connect };
  }
}
