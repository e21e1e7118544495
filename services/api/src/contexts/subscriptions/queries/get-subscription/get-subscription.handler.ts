import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { GetSubscriptionQuery } from './get-subscription.query';

@QueryHandler(GetSubscriptionQuery)
export class GetSubscriptionHandler implements IQueryHandler<GetSubscriptionQuery, Subscription> {
  constructor(private readonly reader: SubscriptionReader) {}

  execute({ actor, subscriptionId }: GetSubscriptionQuery): Promise<Subscription> {
    return this.reader.visibleTo(actor, subscriptionId);
  }
}
