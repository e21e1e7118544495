import { DomainError } from '../../../kernel';
import { loginReservationStreamId, normalizedLogin, reserveLogin } from './login-reservation';

const mine = '55555555-5555-4555-8555-555555555555';
const theirs = '66666666-6666-4666-8666-666666666666';

function refusal(run: () => void): DomainError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

describe('login reservation', () => {
  it('given no live holder, when a subscription reserves the login, then it may hold it', () => {
    expect(refusal(() => reserveLogin({ login: 'dana.tv', subscriptionId: mine }, { subscriptionIds: [] }))).toBeNull();
  });

  it('given another live subscription holds the login, when reserved, then login already exists on the login field', () => {
    const refused = refusal(() =>
      reserveLogin({ login: 'dana.tv', subscriptionId: mine }, { subscriptionIds: [theirs] }),
    );
    expect(refused?.code).toBe('error.login.already.exists');
    expect(refused?.details).toEqual({ field: 'login' });
  });

  it('given the subscription itself holds the login, when reserved again, then it keeps it', () => {
    expect(
      refusal(() => reserveLogin({ login: 'dana.tv', subscriptionId: mine }, { subscriptionIds: [mine] })),
    ).toBeNull();
  });

  it('given the subscription and another both hold it (data from before the rule), when reserved, then refused', () => {
    expect(
      refusal(() => reserveLogin({ login: 'dana.tv', subscriptionId: mine }, { subscriptionIds: [mine, theirs] }))
        ?.code,
    ).toBe('error.login.already.exists');
  });

  it('reserves a login whatever its case, under one stream', () => {
    expect(normalizedLogin('Dana.TV')).toBe('dana.tv');
    expect(loginReservationStreamId('Dana.TV')).toBe(loginReservationStreamId('dana.tv'));
    expect(loginReservationStreamId('dana.tv')).toBe('login-dana.tv');
  });
});
