export interface UnsubscribeSearch {
  /** The signed token of an announcement mail's link (ADR 0091); the server alone decides whether it is genuine. */
  token?: string;
}

export function parseUnsubscribeSearch(search: Record<string, unknown>): UnsubscribeSearch {
  const { token } = search;
  // A token of digits only reads back as a number (see the router's search parser); it is still text to the API.
  if (typeof token === 'string' && token.trim() !== '') return { token: token.trim() };
  if (typeof token === 'number') return { token: String(token) };
  return {};
}
