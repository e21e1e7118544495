import type { EventMetadata } from '@kupa/proto';
import type { EventStore, EventToAppend, RecordedEvent } from '../event-store/event-store.port';
import { type Decider, fold } from './decider';

export interface HandledCommand<State> {
  /** The events the command appended, as stored (empty when the decider decided nothing). */
  events: RecordedEvent[];
  /** The stream's state after those events. */
  state: State;
  /** The stream's version after the command. */
  version: number;
}

/**
 * Load → fold → decide → append for one stream, under the stream's row lock: concurrent commands on the same stream
 * run one after the other, each deciding on the state the previous one left. A `DomainError` thrown by `decide`
 * rolls the transaction back (nothing is written) and reaches the caller unchanged.
 */
export async function handleCommand<State, Command, Event extends EventToAppend>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
): Promise<HandledCommand<State>> {
  const { result, append } = await store.transact([streamId], metadata, async (tx) => {
    const history = await tx.readStream(streamId);
    const version = history.length === 0 ? 0 : history[history.length - 1].streamVersion;
    const state = fold(
      decider,
      history.map((recorded) => ({ type: recorded.type, data: recorded.data }) as Event),
    );
    const events = decider.decide(command, state);
    return {
      appends: events.length === 0 ? [] : [{ streamId, expectedVersion: version, events }],
      result: {
        state: events.reduce((next, event) => decider.evolve(next, event), state),
        version: version + events.length,
      },
    };
  });
  return { events: append.events, state: result.state, version: result.version };
}
