import { WrongExpectedVersionError } from '../../../platform/event-store/errors';

/**
 * Commands lock every stream they touch before reading, so a version conflict should never happen; if one does
 * (a writer that did not lock), the command is decided again from fresh state a few times before giving up.
 */
export const VERSION_CONFLICT_ATTEMPTS = 3;

export async function withVersionRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= VERSION_CONFLICT_ATTEMPTS) throw error;
    }
  }
}
