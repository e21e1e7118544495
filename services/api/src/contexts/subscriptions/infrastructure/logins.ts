import { assert } from '../../../kernel';
import { foldedStreamKind, type StreamRef } from '../../../platform/commands';
import { uniqueViolationConstraint } from '../../../platform/database/unique-violation';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { loginReservationStreamId, reserveLogin } from '../domain/login-reservation';
import type { SubscriptionReader } from '../projections/subscriptions/subscription-reader';
import { SUBSCRIPTION_LOGIN_HELD_CONSTRAINT } from './subscriptions.migrations';

/**
 * Login reservation streams (`login-{normalized login}`, ADR 0071): locked by every command that gives a subscription
 * a login, never appended to. Who holds the login is the subscriptions read model, written by the inline projection
 * in the same transaction as the events that take or free a login, so read under this lock it is exact.
 */
export const loginReservations = foldedStreamKind<null, never>(
  { evolve: (state) => state, initialState: () => null },
  (login) => loginReservationStreamId(String(login)),
);

/**
 * A command's reservation of one login: name `stream` among the command's streams, call `readHolders` in its
 * `prepare` (under the locks), and `reserve` in its `decide` once the command's other rules have spoken, so a
 * refusal they would give comes first, as it did when the unique index was the only guard.
 */
export class LoginReservation {
  private holders: readonly string[] | null = null;

  constructor(
    private readonly login: string,
    private readonly subscriptions: SubscriptionReader,
  ) {}

  get stream(): StreamRef<null, never> {
    return loginReservations.ref(this.login);
  }

  async readHolders(tx: StreamTransaction): Promise<void> {
    this.holders = await this.subscriptions.liveHoldersOf(this.login, tx.manager);
  }

  reserve(subscriptionId: string): void {
    assert(this.holders !== null, 'a login reservation reads its holders under its lock before deciding');
    reserveLogin({ login: this.login, subscriptionId }, { subscriptionIds: this.holders });
  }
}

/**
 * Runs a command that gives a subscription a login. The reservation refuses a login held by another live
 * subscription (409 `error.login.already.exists`); the projection's insert or update still meets the partial unique
 * index `subscriptions_login_held`, which answers the same way, as a second guard for a command that did not reserve.
 */
export async function withUniqueLogin<Result>(command: () => Promise<Result>): Promise<Result> {
  try {
    return await command();
  } catch (error) {
    if (uniqueViolationConstraint(error) === SUBSCRIPTION_LOGIN_HELD_CONSTRAINT)
      throw new ApiError('error.login.already.exists', { field: 'login' });
    throw error;
  }
}
