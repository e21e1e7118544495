import {
  API_BASE_PATH,
  API_ROUTES,
  SESSION_APP_HEADER,
  type TwoFactorActivation,
  type TwoFactorEnrolment,
  type TwoFactorInitializationDetails,
  type User,
} from '@kupa/proto';
import { apiErrorOf, ApiError, httpClient, SESSION_APP } from './http-client';

/**
 * Whose authority an enrolment call carries: the signed-in session, or the enrolment token sign-in answered when the
 * policy requires two-factor sign-in and the staff member has none yet (docs/adr/0018-staff-two-factor-sign-in.md).
 * The token is no session: it is sent as is, never refreshed, and never stored.
 */
export type EnrolmentAuthority = { kind: 'session' } | { kind: 'enrolment-token'; token: string };

async function post<T>(path: string, body: unknown, authority: EnrolmentAuthority): Promise<T> {
  const init = { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) };
  if (authority.kind === 'session') return (await httpClient<T>(path, init)).json;
  const response = await fetch(`${API_BASE_PATH}${path}`, {
    ...init,
    credentials: 'include',
    headers: {
      [SESSION_APP_HEADER]: SESSION_APP,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      Authorization: `Bearer ${authority.token}`,
    },
  });
  if (!response.ok) throw await apiErrorOf(response, true);
  return (await response.json()) as T;
}

export const twoFactorApi = {
  startEnrolment(authority: EnrolmentAuthority): Promise<TwoFactorEnrolment> {
    return post<TwoFactorEnrolment>(API_ROUTES.twoFactorEnrolment, undefined, authority);
  },
  activate(code: string, authority: EnrolmentAuthority): Promise<TwoFactorActivation> {
    return post<TwoFactorActivation>(API_ROUTES.twoFactorActivation, { code }, authority);
  },
  async disable(code: string): Promise<void> {
    await httpClient(API_ROUTES.twoFactorDeactivation, { method: 'POST', body: JSON.stringify({ code }) });
  },
  async isEnabled(): Promise<boolean> {
    return (await httpClient<User>(API_ROUTES.me)).json.twoFactorEnabled;
  },
};

/** The enrolment token of an `error.otp.initialization.required` sign-in answer, if that is what the error is. */
export function enrolmentTokenOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'error.otp.initialization.required') return null;
  const details = (error.body as { details?: Partial<TwoFactorInitializationDetails> } | null)?.details;
  return typeof details?.enrolmentToken === 'string' ? details.enrolmentToken : null;
}
