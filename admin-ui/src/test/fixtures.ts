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
