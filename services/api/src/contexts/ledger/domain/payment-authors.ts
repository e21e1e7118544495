import { CUSTOMER_ROLES, isOneOf, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';

/** The part of an event's actor (its metadata) that says who booked or changed a payment. */
export interface PaymentActor {
  id?: string;
  email?: string | null;
  role?: string | null;
  name?: string;
}

/**
 * How the payment's owner sees who booked or changed it (docs/product.md, Ledger, What a client sees): themselves by
 * their own e-mail; another customer (the sender of a transfer in) by the profile ID the payment already shows; staff
 * and the system only as Kupa, so that no staff member's e-mail ever reaches a client.
 *
 * `counterpartProfileId` is the other customer's profile ID when the payment has one (a transfer's sender); a status
 * change passes null, since only staff and the system change statuses.
 */
export function customerAuthorLabel(
  actor: PaymentActor | undefined,
  ownerUuid: string,
  counterpartProfileId: string | null,
): string {
  if (actor?.id === ownerUuid && actor.email) return actor.email;
  if (isOneOf(CUSTOMER_ROLES, actor?.role) && counterpartProfileId) return counterpartProfileId;
  return PUBLIC_STAFF_ACTOR_NAME;
}
