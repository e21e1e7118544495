import type { ErrorCode } from '@kupa/proto';
import { DomainError, type Evolution, fold } from '../kernel';

type Decide<State, Event> = (state: State) => Event[];

/**
 * Given/When/Then for deciders: given past events, when a command is decided (a command for a decider object, or a
 * function of the state for per-command decide functions), then these events or this rejection. Every decider spec
 * uses it, so a decider is always tested the way the pipeline runs it: folded history first, then the decision.
 */
export function deciderSpec<State, Event, Command extends object = never>(
  decider: Evolution<State, Event> & { decide?(command: Command, state: State): Event[] },
) {
  return {
    given(history: readonly Event[]) {
      return {
        when(command: Command | Decide<State, Event>) {
          const run = () => {
            const state = fold(decider, history);
            if (typeof command === 'function') return command(state);
            if (!decider.decide) throw new Error('This decider decides through functions: pass one to when()');
            return decider.decide(command, state);
          };
          return {
            then(expected: Event[]): void {
              expect(run()).toEqual(expected);
            },
            thenRejects(code: ErrorCode, details?: Record<string, unknown>): void {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              if (details) expect((caught as DomainError).details).toEqual(details);
            },
          };
        },
      };
    },
  };
}
