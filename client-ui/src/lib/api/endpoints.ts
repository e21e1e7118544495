import type {
  ChangePasswordRequest,
  ConfirmationResponse,
  EmailRequest,
  Page,
  Payment,
  PaymentSearchRequest,
  ResetPasswordRequest,
  SignInRequest,
  SignInResponse,
  SignUpRequest,
  TransferRequest,
  UpdateUserRequest,
  User,
} from '@kupa/proto';
import { api } from './api-client';

/** The calls the client shell makes, typed by proto's payloads (docs/api.md, Routes). */
export const authApi = {
  signIn: (body: SignInRequest) => api.post<SignInResponse>('/auth/signin', body, { skipRefresh: true }),
  signUp: (body: SignUpRequest) => api.post<User>('/auth/signup', body, { skipRefresh: true }),
  logout: () => api.post<void>('/auth/logout', undefined, { skipRefresh: true }),
  forgotPassword: (body: EmailRequest) => api.post<void>('/password/forgot', body, { skipRefresh: true }),
  resetPassword: (body: ResetPasswordRequest) => api.put<void>('/password/token', body, { skipRefresh: true }),
  confirmAccount: (token: string) =>
    api.get<ConfirmationResponse>('/confirmation-token', { query: { token }, skipRefresh: true }),
  resendConfirmation: (body: EmailRequest) => api.post<void>('/users/resend-signup-email', body, { skipRefresh: true }),
};

export const usersApi = {
  me: () => api.get<User>('/users/me'),
  updateName: (userUuid: string, body: UpdateUserRequest) =>
    api.put<User>(`/users/${encodeURIComponent(userUuid)}`, body),
  changePassword: (body: ChangePasswordRequest) => api.put<void>('/password', body),
};

export const paymentsApi = {
  /** The signed-in client's own payments; the server never returns another user's rows to a client. */
  search: (body: PaymentSearchRequest, signal?: AbortSignal) =>
    api.post<Page<Payment>>('/payments/search', body, { signal }),
  get: (paymentId: number) => api.get<Payment>(`/payments/${paymentId}`),
  /**
   * Moves balance to another user and answers with the sender's TRANSFER_OUT payment. The key names one confirmed
   * submission, so the server books a retried request once.
   */
  transfer: (body: TransferRequest, idempotencyKey: string) =>
    api.post<Payment>('/payments/transfer', body, { headers: { 'Idempotency-Key': idempotencyKey } }),
};
