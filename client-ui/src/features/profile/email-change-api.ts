import { API_ROUTES, type ChangeEmailRequest, type EmailChangeResponse } from '@kupa/proto';
import { api } from '../../lib/api/api-client';

/**
 * The change of e-mail's calls (docs/adr/0100-change-of-e-mail.md), kept with the lazily loaded profile rather than in
 * the shared endpoints, which the first screen carries (ADR 0048).
 */
export const emailChangeApi = {
  /** Asks to move to another address; the link mailed there confirms it. */
  ask: (body: ChangeEmailRequest) => api.post<void>(API_ROUTES.changeEmail, body),
  /** The link's page: opened signed in or not, and the change ends every session, so no refresh is tried. */
  confirm: (token: string) =>
    api.put<EmailChangeResponse>(API_ROUTES.confirmEmailChange, { token }, { skipRefresh: true }),
};
