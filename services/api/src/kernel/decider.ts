/**
 * How a stream's state follows from its events: the half of a decider that loading needs. Pure functions only.
 */
export interface Evolution<State, Event> {
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/**
 * A decider (emmett style): pure functions from a command and the current state to new events, and from a state and
 * an event to the next state. No I/O and no clock: time arrives inside the command. A context may also expose one
 * decide function per command over a shared `Evolution` (identity does); the pipeline only needs the evolution.
 */
export interface Decider<State, Command, Event> extends Evolution<State, Event> {
  decide(command: Command, state: State): Event[];
}

export function fold<State, Event>(evolution: Evolution<State, Event>, events: readonly Event[]): State {
  return events.reduce((state, event) => evolution.evolve(state, event), evolution.initialState());
}
