import type { StreamTransaction } from '../../../../platform/event-store/event-store.port';
import type { RequestContext } from '../../../../platform/auth';
import { type CommandPlan, type CommandStamp, foldedStreamKind, type StreamRef } from '../../../../platform/commands';
import { userEvolution } from '../../domain/user.decider';
import { type UserEvent, userStreamId } from '../../domain/user.events';
import type { UserState } from '../../domain/user.state';

/** User streams (`user-{uuid}`) for the command pipeline: a user's history is short, so it is folded whole. */
export const userStreams = foldedStreamKind(userEvolution, (userUuid) => userStreamId(String(userUuid)));

type UserStreamRefs = { user: StreamRef<UserState, UserEvent> };

/**
 * The plan of a command on one user stream: decide with one of the user decider's functions and, optionally, write
 * the identity tables that go with the events (credentials, tokens, sessions) in the same transaction.
 */
export function userCommand(
  userUuid: string,
  context: RequestContext,
  decide: (state: UserState, stamp: CommandStamp) => UserEvent[],
  alongside?: (tx: StreamTransaction, events: readonly UserEvent[], stamp: CommandStamp) => Promise<void>,
): CommandPlan<UserStreamRefs, UserEvent[]> {
  return {
    context,
    streams: { user: userStreams.ref(userUuid) },
    decide: ({ user }, stamp) => {
      const events = decide(user.state, stamp);
      return { events: { user: events }, result: events };
    },
    alongside: alongside && ((tx, decision, stamp) => alongside(tx, decision.result, stamp)),
  };
}
