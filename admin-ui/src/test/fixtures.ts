/** A client as `GET /api/users/{uuid}` returns it, with the `id` react-admin adds. */
export const CLIENT = Object.freeze({
  id: 'u-1',
  userUuid: 'u-1',
  email: 'dana@example.com',
  fullName: 'Dana Levi',
  role: 'CLIENT',
  status: 'ACTIVE',
  profileId: '12345678',
  balance: 0,
  userCreatedAt: '2026-01-02T10:00:00Z',
  trialUsed: false,
  trialRejected: false,
  twoFactorEnabled: false,
});

/** An activity-log entry as `GET /api/audit-logs/{id}` and the search return it. */
export const AUDIT_LOG_ENTRY = Object.freeze({
  id: 'a-1',
  createdAt: '2026-03-02T10:00:00Z',
  createdBy: Object.freeze({ id: 's-1', name: 'Avi Admin' }),
  operationType: 'UPDATED',
  target: Object.freeze({ type: 'CLIENT', id: 'u-1', name: 'Dana Levi', email: 'dana@example.com' }),
  parent: null,
  changes: Object.freeze([Object.freeze({ field: 'status', oldValue: 'ACTIVE', newValue: 'BLOCKED' })]),
  eventType: 'UserStatusChanged',
});

/** A package as `GET /api/payment-plans/{id}` and the search return it (its `id` is the record id). */
export const PACKAGE = Object.freeze({
  id: 'p-1',
  name: 'Gold',
  durationInMonths: 3,
  price: 29.99,
  currency: 'USD',
  isRecurrent: true,
  cardPaymentAllowed: true,
  description: 'Every channel',
  nameEn: '',
  descriptionEn: '',
  features: Object.freeze(['HD']),
  status: 'ACTIVE',
  createdAt: '2026-03-02T10:00:00Z',
  updatedAt: '2026-03-02T10:00:00Z',
});

/** A subscription as `GET /api/subscriptions/{id}` and the search return it (its `id` is the record id). */
export const SUBSCRIPTION = Object.freeze({
  id: '5b0f8a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
  userUuid: 'u-1',
  userEmail: 'dana@example.com',
  paymentPlan: Object.freeze({ planId: 'p-1', planName: 'Gold' }),
  price: 29.99,
  currency: 'USD',
  status: 'ACTIVE',
  type: 'REGULAR',
  durationInMonth: 3,
  isRecurrent: true,
  cancelAtPeriodEnd: false,
  nextPaymentDate: '2026-06-01T10:00:00.000Z',
  login: 'dana.tv',
  startDate: '2026-03-04T10:00:00.000Z',
  endDate: '2026-06-04T10:00:00.000Z',
  graceEndsAt: null,
  createdAt: '2026-03-04T09:59:00.000Z',
  createdBy: 'u-1',
  updatedAt: '2026-03-04T10:00:00.000Z',
  updatedBy: 'SYSTEM',
});
