import { PUBLIC_STAFF_ACTOR_NAME, SYSTEM_ACTOR_ID, SYSTEM_ACTOR_NAME } from '@kupa/proto';
import { customerAuthorLabel } from './payment-authors';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

describe('customerAuthorLabel', () => {
  it('names the owner by their own e-mail', () => {
    expect(customerAuthorLabel({ id: OWNER, email: 'dana@example.com', role: 'CLIENT' }, OWNER, null)).toBe(
      'dana@example.com',
    );
  });

  it('names staff and the system only as Kupa, never by e-mail', () => {
    for (const role of ['ADMIN', 'MANAGER'])
      expect(customerAuthorLabel({ id: OTHER, email: 'ops@kupa.test', role }, OWNER, '12345678')).toBe(
        PUBLIC_STAFF_ACTOR_NAME,
      );
    expect(
      customerAuthorLabel({ id: SYSTEM_ACTOR_ID, email: null, role: null, name: SYSTEM_ACTOR_NAME }, OWNER, null),
    ).toBe(PUBLIC_STAFF_ACTOR_NAME);
    expect(customerAuthorLabel(undefined, OWNER, null)).toBe(PUBLIC_STAFF_ACTOR_NAME);
  });

  it('names another customer (a transfer’s sender) by the profile ID the payment shows, not by e-mail', () => {
    expect(customerAuthorLabel({ id: OTHER, email: 'sender@example.com', role: 'AMBASSADOR' }, OWNER, '87654321')).toBe(
      '87654321',
    );
    expect(customerAuthorLabel({ id: OTHER, email: 'sender@example.com', role: 'CLIENT' }, OWNER, null)).toBe(
      PUBLIC_STAFF_ACTOR_NAME,
    );
  });
});
