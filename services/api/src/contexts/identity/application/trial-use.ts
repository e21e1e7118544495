import type { LoadedStream, StreamRef } from '../../../platform/commands';
import { markTrialUsed } from '../domain/user.decider';
import type { UserEvent } from '../domain/user.events';
import type { UserState } from '../domain/user.state';
import { userStreams } from '../infrastructure/streams/user-streams';

/**
 * The user's half of taking the trial, for the subscriptions context: it names the user's stream beside the new
 * subscription's in one pipeline run, so that "the trial is used" and the trial subscription commit together or not
 * at all, and two trials at once queue on the user's lock (the second is refused with `error.trial.already.used`).
 */
export const TrialUse = Object.freeze({
  stream(userUuid: string): StreamRef<UserState, UserEvent> {
    return userStreams.ref(userUuid);
  },
  decide(user: LoadedStream<UserState>, at: Date): UserEvent[] {
    return markTrialUsed({ at }, user.state);
  },
});
