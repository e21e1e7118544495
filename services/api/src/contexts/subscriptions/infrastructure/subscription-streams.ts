import { foldedStreamKind } from '../../../platform/commands';
import { subscriptionEvolution } from '../domain/subscription.decider';
import { subscriptionStreamId } from '../domain/subscription.events';

/** Subscription streams (`subscription-{uuid}`): a subscription's history is short, so it is folded whole. */
export const subscriptionStreams = foldedStreamKind(subscriptionEvolution, (subscriptionId) =>
  subscriptionStreamId(String(subscriptionId)),
);
