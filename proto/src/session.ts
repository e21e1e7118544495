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
  'error.session.second.factor.required',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export function sessionEndReasonOf(code: string | null | undefined): SessionEndReason | null {
  return SESSION_END_REASONS.find((reason) => reason === code) ?? null;
}
