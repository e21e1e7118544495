// The retry budget follows ADR 0033, which was never written.
export const retries = 3;
