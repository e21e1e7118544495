import { DomainError } from '../../../kernel';

/**
 * A login is unique among the subscriptions that still hold an account at the streaming service (PENDING, ACTIVE or
 * UNSUBSCRIBED; an EXPIRED or CANCELED one has freed it), whatever its case (ADR 0071). Every command that gives a
 * subscription a login locks the login's reservation stream, reads the login's holders under that lock and asks this
 * rule before it appends, so two commands that want one login queue and the second is refused by the decision,
 * not by the read model's unique index after the fact.
 */

/** The form a login is reserved under: logins differ only when they differ in more than case. */
export function normalizedLogin(login: string): string {
  return login.toLowerCase();
}

/** The reservation stream of a login (`login-{normalized login}`): a lock, never appended to. */
export function loginReservationStreamId(login: string): string {
  return `login-${normalizedLogin(login)}`;
}

/**
 * The reservation decision: `subscriptionId` may hold `login` when no other live subscription holds it. The
 * subscription that already holds it (a login changed to itself, a purchase decided again) is no obstacle.
 */
export function reserveLogin(
  command: { login: string; subscriptionId: string },
  holders: { subscriptionIds: readonly string[] },
): void {
  if (holders.subscriptionIds.some((holder) => holder !== command.subscriptionId))
    throw new DomainError('error.login.already.exists', { field: 'login' });
}
