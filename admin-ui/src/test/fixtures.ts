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
});
