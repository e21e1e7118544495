/** `within` gave up waiting: the work may still finish later, but nobody waits for it any more. */
export class TimedOut extends Error {}

/**
 * `work`'s result, or a `TimedOut` rejection once `ms` have passed without one (a readiness check, a start of the
 * embedded PostgreSQL). The timer is cleared either way, so a quick answer leaves nothing behind to keep the process up.
 */
export async function within<T>(ms: number, work: Promise<T>, what = 'the work'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
