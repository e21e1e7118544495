import { Injectable } from '@nestjs/common';
import { EventStore, type StreamTransaction } from '../../../platform/event-store/event-store.port';
import { fold } from '../../../platform/decider/decider';
import { eventMetadata, type RequestContext } from '../../../platform/auth';
import { userDecider, type UserCommand } from '../domain/user.decider';
import { type UserEvent, userStreamId } from '../domain/user.events';
import type { UserState } from '../domain/user.state';

/** Work a command does beside its events, inside the same transaction (credentials, tokens, sessions). */
export type AlongsideWork = (tx: StreamTransaction, state: UserState, events: UserEvent[]) => Promise<void>;

/**
 * Load → fold → decide → append for one user stream, under the stream's lock, with side tables written in the same
 * PostgreSQL transaction so that a password and the event that explains it commit together or not at all.
 */
@Injectable()
export class UserStreams {
  constructor(private readonly eventStore: EventStore) {}

  async execute(
    userUuid: string,
    command: UserCommand,
    context: RequestContext,
    occurredAt: Date,
    alongside?: AlongsideWork,
  ): Promise<UserEvent[]> {
    const streamId = userStreamId(userUuid);
    const { result } = await this.eventStore.transact([streamId], eventMetadata(context, occurredAt), async (tx) => {
      const history = await tx.readStream(streamId);
      const state = fold(
        userDecider,
        history.map((recorded) => ({ type: recorded.type, data: recorded.data }) as UserEvent),
      );
      const events = userDecider.decide(command, state);
      if (alongside) await alongside(tx, state, events);
      const expectedVersion = history.length === 0 ? 0 : history[history.length - 1].streamVersion;
      return {
        appends: events.length === 0 ? [] : [{ streamId, expectedVersion, events }],
        result: events,
      };
    });
    return result;
  }
}
