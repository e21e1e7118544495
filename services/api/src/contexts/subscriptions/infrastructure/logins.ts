import { assert } from '../../../kernel';
import type { StreamLoader, StreamRef } from '../../../platform/commands';
import { uniqueViolationConstraint } from '../../../platform/database/unique-violation';
import { ApiError } from '../../../platform/http';
import { loginReservationStreamId, reserveLogin } from '../domain/login-reservation';
import type { SubscriptionReader } from '../projections/subscriptions/subscription-reader';
import { SUBSCRIPTION_LOGIN_HELD_CONSTRAINT } from './subscriptions.migrations';

/**
 * The live holders of the logins of the reservation streams named by `ids`, read in the statement that locks them
 * (ADR 0137): the login is the stream id after `login-`, already lower case, and logins are ASCII (`PATTERNS`).
 */
const liveHoldersWithLocks = (ids: string) =>
  `SELECT i.id AS stream_id, s.id::text AS holder FROM unnest(${ids}::text[]) AS i(id)
     JOIN subscriptions s ON lower(s.login) = lower(substr(i.id, ${loginReservationStreamId('').length + 1}))
                         AND s.status NOT IN ('EXPIRED', 'CANCELED')`;

/**
 * A command's reservation of one login (ADR 0071): its stream (`login-{normalized login}`) is locked by every command
 * that gives a subscription a login and never appended to; who holds the login is the subscriptions read model,
 * written by the inline projection in the same transaction as the events that take or free a login, so read under
 * this lock it is exact. Name `stream` among the command's streams, and call `reserve` in its
 * `decide` once the command's other rules have spoken, so a refusal they would give comes first, as it did when the
 * unique index was the only guard. The holders are read under the stream's lock when it is loaded: in the locking
 * statement when that statement created the stream (no one held its lock before, so no one can have taken the login
 * since that statement's snapshot, ADR 0137), else by a read of their own after it, as ADR 0071 had it.
 */
export class LoginReservation {
  private holders: readonly string[] | null = null;
  private readonly loader: StreamLoader<null> = {
    readWithLocks: liveHoldersWithLocks,
    load: async (tx, streamIds, rowsReadWithLocks) => {
      assert(streamIds.length === 1, 'a reservation names one login stream');
      const [streamId] = streamIds;
      this.holders =
        rowsReadWithLocks !== undefined && tx.createdStreams.has(streamId)
          ? rowsReadWithLocks
              .filter((row) => row.stream_id === streamId)
              .map((row) => String(row.holder))
              .sort()
          : await this.subscriptions.liveHoldersOf(this.login, tx.manager);
      return new Map([[streamId, { streamId, state: null, version: await tx.streamVersion(streamId) }]]);
    },
  };

  constructor(
    private readonly login: string,
    private readonly subscriptions: SubscriptionReader,
  ) {}

  get stream(): StreamRef<null, never> {
    return { streamId: loginReservationStreamId(this.login), loader: this.loader };
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
