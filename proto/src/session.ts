/**
 * Both UIs share one origin, so each names itself on every call with this header and the API keeps its session in
 * a refresh cookie of its own (docs/adr/0009-refresh-sessions-per-app.md). Callers without the header (scripts, the
 * benchmark) get a third, unnamed session.
 */
export const SESSION_APP_HEADER = 'X-Kupa-App';
export const SESSION_APPS = ['admin', 'client'] as const;
export type SessionApp = (typeof SESSION_APPS)[number];
