/**
 * The part of the Web Crypto API that `randomUuid` uses. Proto compiles without DOM or Node types, so it names the
 * shape it relies on instead of borrowing either library's declaration.
 */
interface RandomSource {
  randomUUID?: () => string;
  getRandomValues(array: Uint8Array): Uint8Array;
}

/**
 * A random version-4 UUID, for idempotency keys and other ids the browsers mint. `crypto.randomUUID` exists only in
 * secure contexts (HTTPS or localhost), and the screens may be served over plain HTTP inside a private network, so the
 * fallback builds the same format from `getRandomValues`, which browsers offer everywhere.
 */
export function randomUuid(): string {
  const { crypto } = globalThis as unknown as { crypto: RandomSource };
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562: the high nibble of byte 6 is the version (4), the two high bits of byte 8 are the variant (10).
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
