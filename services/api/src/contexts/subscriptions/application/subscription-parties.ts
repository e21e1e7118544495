import { Injectable } from '@nestjs/common';
import type { Subscription } from '@kupa/proto';
import { ApiError } from '../../../platform/http';
import { UserReader, type UserView } from '../../identity';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';

/**
 * Who a command is about, read before its locks: the buyer or owner as identity knows them now, and the subscription
 * as its read model shows it. A missing one is the 404 every route answers for it.
 */
@Injectable()
export class SubscriptionParties {
  constructor(
    private readonly users: UserReader,
    private readonly subscriptions: SubscriptionReader,
  ) {}

  async existingUser(userUuid: string): Promise<UserView> {
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    return user;
  }

  /** A buyer, with the users they referred (what `ReferralDiscounts.percentForReferred` counts), in one read. */
  async existingBuyer(userUuid: string): Promise<{ buyer: UserView; referredUuids: readonly string[] }> {
    const found = await this.users.findWithReferred(userUuid);
    if (!found) throw new ApiError('error.user.not.found');
    return { buyer: found.user, referredUuids: found.referredUuids };
  }

  async subscription(subscriptionId: string): Promise<Subscription> {
    const subscription = await this.subscriptions.find(subscriptionId);
    if (!subscription) throw new ApiError('error.subscription.not.found');
    return subscription;
  }

  /** The owner of a subscription (who never changes), as identity knows them now. */
  async ownerOf(subscriptionId: string): Promise<UserView> {
    return this.existingUser((await this.subscription(subscriptionId)).userUuid);
  }
}
