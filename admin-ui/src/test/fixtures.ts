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
  description: 'Every channel',
  features: Object.freeze(['HD']),
  status: 'ACTIVE',
  createdAt: '2026-03-02T10:00:00Z',
  updatedAt: '2026-03-02T10:00:00Z',
});
