/**
 * Asks `probe` again until `done` holds for its answer, and returns that answer. What processors, sweeps and the
 * provisioning loop do follows a request a little later, so specs wait for the state they expect rather than for a
 * fixed time. The error names what never happened and the last answer seen.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Still not so after ${timeoutMs} ms: ${what}; last saw ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
