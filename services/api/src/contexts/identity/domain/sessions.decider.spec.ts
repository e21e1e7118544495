import { deciderSpec } from '../../../test-support/decider-spec';
import { endSessionsByStaff, isNewDevice } from './sessions.decider';
import { type CommandActor, userEvolution } from './user.decider';
import type { UserEvent } from './user.events';

const at = new Date('2026-11-30T10:00:00Z');
const userUuid = '11111111-1111-4111-8111-111111111111';
const admin: CommandActor = { userUuid: '22222222-2222-4222-8222-222222222222', role: 'ADMIN' };
const manager: CommandActor = { userUuid: '33333333-3333-4333-8333-333333333333', role: 'MANAGER' };

function created(role: 'CLIENT' | 'MANAGER'): UserEvent {
  return {
    type: 'UserCreatedByStaff',
    data: {
      userUuid,
      email: 'dana@example.com',
      firstName: 'Dana',
      lastName: 'Levi',
      role,
      status: 'ACTIVE',
      profileId: 'P1',
      language: 'he',
      createdAt: at.toISOString(),
    },
  };
}

const spec = deciderSpec(userEvolution);
const command = { reason: 'SUSPICIOUS_ACTIVITY' as const, note: '  phone stolen  ', sessionCount: 2, at };

describe("ending a client's sessions by staff", () => {
  it('Given a client, When an admin ends their sessions, Then the reason and the trimmed note are recorded', () => {
    spec
      .given([created('CLIENT')])
      .when((state) => endSessionsByStaff({ ...command, actor: admin }, state))
      .then([
        {
          type: 'UserSessionsEndedByStaff',
          data: {
            userUuid,
            userRole: 'CLIENT',
            sessionCount: 2,
            reason: 'SUSPICIOUS_ACTIVITY',
            note: 'phone stolen',
            endedAt: at.toISOString(),
          },
        },
      ]);
  });

  it('Given a client, When a manager tries, Then it is forbidden', () => {
    spec
      .given([created('CLIENT')])
      .when((state) => endSessionsByStaff({ ...command, actor: manager }, state))
      .thenRejects('error.access.forbidden', { reason: 'not.admin' });
  });

  it('Given a staff account, When an admin tries, Then it is forbidden', () => {
    spec
      .given([created('MANAGER')])
      .when((state) => endSessionsByStaff({ ...command, actor: admin }, state))
      .thenRejects('error.access.forbidden', { reason: 'staff.account' });
  });

  it('Given no user, When an admin tries, Then the user is not found', () => {
    spec
      .given([])
      .when((state) => endSessionsByStaff({ ...command, actor: admin }, state))
      .thenRejects('error.user.not.found');
  });
});

describe('a new device', () => {
  it('is a browser the user never signed in with, after a first sign-in', () => {
    expect(isNewDevice({ signedInBefore: true, deviceSeenBefore: false })).toBe(true);
    expect(isNewDevice({ signedInBefore: true, deviceSeenBefore: true })).toBe(false);
    // The first sign-in of all tells the user nothing new.
    expect(isNewDevice({ signedInBefore: false, deviceSeenBefore: false })).toBe(false);
  });
});
