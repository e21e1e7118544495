import { WrongExpectedVersionError } from '../../../platform/event-store/errors';
import { VERSION_CONFLICT_ATTEMPTS, withVersionRetry } from './version-retry';

/** Work that meets a version conflict on its first `conflicts` attempts, then answers the attempt number. */
function conflicting(conflicts: number): { attempts: () => number; work: () => Promise<number> } {
  let attempts = 0;
  return {
    attempts: () => attempts,
    work: async () => {
      attempts += 1;
      if (attempts <= conflicts) throw new WrongExpectedVersionError('wallet-a', attempts - 1, attempts);
      return attempts;
    },
  };
}

describe('withVersionRetry', () => {
  it('decides again after a conflict and answers the first attempt that commits', async () => {
    const run = conflicting(VERSION_CONFLICT_ATTEMPTS - 1);
    await expect(withVersionRetry(run.work)).resolves.toBe(VERSION_CONFLICT_ATTEMPTS);
    expect(run.attempts()).toBe(VERSION_CONFLICT_ATTEMPTS);
  });

  it('gives up with the conflict once its budget is spent', async () => {
    const run = conflicting(VERSION_CONFLICT_ATTEMPTS);
    await expect(withVersionRetry(run.work)).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(run.attempts()).toBe(VERSION_CONFLICT_ATTEMPTS);
  });

  it('never repeats work that failed for another reason', async () => {
    let attempts = 0;
    const refusal = new Error('error.insufficient.balance');
    await expect(
      withVersionRetry(async () => {
        attempts += 1;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(attempts).toBe(1);
  });
});
