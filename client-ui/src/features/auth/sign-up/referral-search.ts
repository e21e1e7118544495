import { checkReferralToken } from '@kupa/proto';

export interface SignUpSearch {
  ref?: string;
}

/**
 * Keeps `?ref=` as a string. The router's default parser turns an all-digit value into a number (and would lose
 * leading zeros), so both shapes are accepted; whether it is valid is decided with proto's rule.
 */
export function parseSignUpSearch(search: Record<string, unknown>): SignUpSearch {
  const raw = search.ref;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return { ref: String(raw) };
  if (typeof raw === 'string' && raw !== '') return { ref: raw };
  return {};
}

export function isValidReferral(ref: string | undefined): ref is string {
  return ref !== undefined && checkReferralToken(ref) === null;
}
