import { CanonicalUuidPipe } from '../../../platform/http';

/** A path package id; a malformed one names no package, so it answers like a missing one (404), never a 500. */
export const PlanIdPipe = CanonicalUuidPipe('error.payment.plan.not.found');
