import type { ErrorCode } from '@kupa/proto';

/**
 * A decider (emmett style): pure functions from a command and the current state to new events, and from a state and
 * an event to the next state. No I/O and no clock: time arrives inside the command.
 */
export interface Decider<State, Command, Event> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

export function fold<State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}

/**
 * A rule said no. Carries a catalogue code, so the HTTP layer answers with the catalogue status and message.
 * Bugs are not DomainErrors: they are assertions (`assert`), and surface as 500s.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
}
