import { CanonicalUuidPipe } from '../../../platform/http';

/** A path subscription id; a malformed one names no subscription, so it answers like a missing one (404). */
export const SubscriptionIdPipe = CanonicalUuidPipe('error.subscription.not.found');

/** A path package id to buy; a malformed one names no package (404). */
export const PlanIdPipe = CanonicalUuidPipe('error.payment.plan.not.found');

/** A path user id: only the caller's own account may take its trial; any other id answers 404. */
export const UserUuidPipe = CanonicalUuidPipe('error.user.not.found');
