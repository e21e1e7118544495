import type { ErrorCode } from '@kupa/proto';
import { DomainError, fold } from '../../../platform/decider/decider';
import { type CommandActor, userDecider, type UserCommand } from './user.decider';
import type { UserEvent } from './user.events';

const at = new Date('2026-03-01T10:00:00Z');
const userUuid = '11111111-1111-4111-8111-111111111111';
const adminActor: CommandActor = { userUuid: '22222222-2222-4222-8222-222222222222', role: 'ADMIN' };
const managerActor: CommandActor = { userUuid: '33333333-3333-4333-8333-333333333333', role: 'MANAGER' };

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userUuid,
    email: 'dana@example.com',
    firstName: 'דנה',
    lastName: 'לוי',
    role: 'CLIENT',
    status: 'NON_VERIFIED',
    profileId: '12345678',
    language: 'he',
    referrerProfileId: null,
    registeredAt: '2026-02-01T00:00:00.000Z',
  },
};
const confirmed: UserEvent = {
  type: 'UserEmailConfirmed',
  data: { userUuid, userRole: 'CLIENT', status: 'ACTIVE', confirmedAt: '2026-02-01T01:00:00.000Z' },
};
const staffCreated = (role: 'ADMIN' | 'MANAGER'): UserEvent => ({
  type: 'UserCreatedByStaff',
  data: {
    userUuid,
    email: 'staff@example.com',
    firstName: 'Noa',
    lastName: 'Cohen',
    role,
    status: 'ACTIVE',
    profileId: '87654321',
    language: 'he',
    createdAt: '2026-02-01T00:00:00.000Z',
  },
});

/** Given past events, when a command arrives, then these events (or this rejection). */
function given(history: UserEvent[]) {
  return {
    when(command: UserCommand) {
      const run = () => userDecider.decide(command, fold(userDecider, history));
      return {
        then(expected: UserEvent[]) {
          expect(run()).toEqual(expected);
        },
        thenRejects(code: ErrorCode) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).code).toBe(code);
        },
      };
    },
  };
}

describe('user decider', () => {
  describe('RegisterUser', () => {
    const register: UserCommand = {
      type: 'RegisterUser',
      userUuid,
      email: 'dana@example.com',
      firstName: 'דנה',
      lastName: 'לוי',
      profileId: '12345678',
      language: 'he',
      referrerProfileId: '99999999',
      at,
    };

    it('registers a non-verified client', () => {
      given([])
        .when(register)
        .then([
          {
            type: 'UserRegistered',
            data: { ...registered.data, referrerProfileId: '99999999', registeredAt: at.toISOString() },
          } as UserEvent,
        ]);
    });

    it('refuses a second registration on the same stream', () => {
      given([registered]).when(register).thenRejects('error.entity.already.exists');
    });
  });

  describe('CreateUserByStaff', () => {
    it('creates an active account with the requested role', () => {
      given([])
        .when({
          type: 'CreateUserByStaff',
          userUuid,
          email: 'm@example.com',
          firstName: 'M',
          lastName: 'N',
          profileId: '10000000',
          language: 'en',
          role: 'MANAGER',
          at,
        })
        .then([
          {
            type: 'UserCreatedByStaff',
            data: {
              userUuid,
              email: 'm@example.com',
              firstName: 'M',
              lastName: 'N',
              role: 'MANAGER',
              status: 'ACTIVE',
              profileId: '10000000',
              language: 'en',
              createdAt: at.toISOString(),
            },
          },
        ]);
    });
  });

  describe('ConfirmEmail', () => {
    it('activates a non-verified user', () => {
      given([registered])
        .when({ type: 'ConfirmEmail', at })
        .then([
          {
            type: 'UserEmailConfirmed',
            data: { userUuid, userRole: 'CLIENT', status: 'ACTIVE', confirmedAt: at.toISOString() },
          },
        ]);
    });

    it('refuses an already active user', () => {
      given([registered, confirmed]).when({ type: 'ConfirmEmail', at }).thenRejects('error.account.already.active');
    });

    it('refuses a blocked user', () => {
      const blocked: UserEvent = {
        type: 'UserStatusChanged',
        data: { userUuid, userRole: 'CLIENT', previousStatus: 'NON_VERIFIED', status: 'BLOCKED' },
      };
      given([registered, blocked]).when({ type: 'ConfirmEmail', at }).thenRejects('error.account.blocked');
    });

    it('refuses a user that does not exist', () => {
      given([]).when({ type: 'ConfirmEmail', at }).thenRejects('error.user.not.found');
    });
  });

  describe('UpdateProfile', () => {
    it('records new names', () => {
      given([registered, confirmed])
        .when({ type: 'UpdateProfile', firstName: 'Dana', lastName: 'Levi' })
        .then([
          { type: 'UserProfileUpdated', data: { userUuid, userRole: 'CLIENT', firstName: 'Dana', lastName: 'Levi' } },
        ]);
    });

    it('stays quiet when nothing changes', () => {
      given([registered]).when({ type: 'UpdateProfile', firstName: 'דנה', lastName: 'לוי' }).then([]);
    });
  });

  describe('ChangePassword', () => {
    it('records the change at the command’s instant (the hash itself never enters an event)', () => {
      given([registered, confirmed])
        .when({ type: 'ChangePassword', at })
        .then([{ type: 'UserPasswordChanged', data: { userUuid, userRole: 'CLIENT', changedAt: at.toISOString() } }]);
    });

    it('names the role the user holds now, so the activity log files it correctly', () => {
      const promoted: UserEvent = {
        type: 'UserRoleChanged',
        data: { userUuid, previousRole: 'CLIENT', role: 'AMBASSADOR' },
      };
      given([registered, confirmed, promoted])
        .when({ type: 'ChangePassword', at })
        .then([
          { type: 'UserPasswordChanged', data: { userUuid, userRole: 'AMBASSADOR', changedAt: at.toISOString() } },
        ]);
      given([staffCreated('MANAGER')])
        .when({ type: 'ChangePassword', at })
        .then([{ type: 'UserPasswordChanged', data: { userUuid, userRole: 'MANAGER', changedAt: at.toISOString() } }]);
    });

    it('records every change, also a second one at the same instant', () => {
      const changed: UserEvent = {
        type: 'UserPasswordChanged',
        data: { userUuid, userRole: 'CLIENT', changedAt: at.toISOString() },
      };
      given([registered, confirmed, changed]).when({ type: 'ChangePassword', at }).then([changed]);
    });

    it('refuses a user that does not exist', () => {
      given([]).when({ type: 'ChangePassword', at }).thenRejects('error.user.not.found');
    });
  });

  describe('ResetPassword', () => {
    it('also proves the address of a non-verified user', () => {
      given([registered])
        .when({ type: 'ResetPassword', at })
        .then([
          {
            type: 'UserEmailConfirmed',
            data: { userUuid, userRole: 'CLIENT', status: 'ACTIVE', confirmedAt: at.toISOString() },
          },
          { type: 'UserPasswordReset', data: { userUuid, userRole: 'CLIENT', resetAt: at.toISOString() } },
        ]);
    });

    it('only resets the password of an active user', () => {
      given([registered, confirmed])
        .when({ type: 'ResetPassword', at })
        .then([{ type: 'UserPasswordReset', data: { userUuid, userRole: 'CLIENT', resetAt: at.toISOString() } }]);
    });
  });

  describe('ChangeStatus', () => {
    it('blocks a client on a manager’s request', () => {
      given([registered, confirmed])
        .when({ type: 'ChangeStatus', status: 'BLOCKED', actor: managerActor })
        .then([
          {
            type: 'UserStatusChanged',
            data: { userUuid, userRole: 'CLIENT', previousStatus: 'ACTIVE', status: 'BLOCKED' },
          },
        ]);
    });

    it('stays quiet when the status is already the requested one', () => {
      given([registered, confirmed]).when({ type: 'ChangeStatus', status: 'ACTIVE', actor: adminActor }).then([]);
    });

    it('refuses staff changing their own status', () => {
      given([staffCreated('ADMIN')])
        .when({ type: 'ChangeStatus', status: 'BLOCKED', actor: { userUuid, role: 'ADMIN' } })
        .thenRejects('error.access.forbidden');
    });

    it('refuses a manager blocking another staff member', () => {
      given([staffCreated('MANAGER')])
        .when({ type: 'ChangeStatus', status: 'BLOCKED', actor: managerActor })
        .thenRejects('error.access.forbidden');
    });

    it('lets an admin block a manager', () => {
      given([staffCreated('MANAGER')])
        .when({ type: 'ChangeStatus', status: 'BLOCKED', actor: adminActor })
        .then([
          {
            type: 'UserStatusChanged',
            data: { userUuid, userRole: 'MANAGER', previousStatus: 'ACTIVE', status: 'BLOCKED' },
          },
        ]);
    });
  });

  describe('ChangeRole', () => {
    it('lets a manager make a client an ambassador', () => {
      given([registered, confirmed])
        .when({ type: 'ChangeRole', role: 'AMBASSADOR', actor: managerActor })
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'CLIENT', role: 'AMBASSADOR' } }]);
    });

    it('refuses a manager granting a staff role', () => {
      given([registered, confirmed])
        .when({ type: 'ChangeRole', role: 'MANAGER', actor: managerActor })
        .thenRejects('error.access.forbidden');
    });

    it('lets an admin grant a staff role', () => {
      given([registered, confirmed])
        .when({ type: 'ChangeRole', role: 'ADMIN', actor: adminActor })
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'CLIENT', role: 'ADMIN' } }]);
    });

    it('refuses anyone changing their own role', () => {
      given([staffCreated('ADMIN')])
        .when({ type: 'ChangeRole', role: 'CLIENT', actor: { userUuid, role: 'ADMIN' } })
        .thenRejects('error.access.forbidden');
    });

    it('lets the system restore the bootstrap admin', () => {
      given([staffCreated('MANAGER')])
        .when({ type: 'ChangeRole', role: 'ADMIN', actor: null })
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'MANAGER', role: 'ADMIN' } }]);
    });
  });

  describe('SetPasswordByStaff', () => {
    it('refuses a manager setting an admin’s password', () => {
      given([staffCreated('ADMIN')])
        .when({ type: 'SetPasswordByStaff', actor: managerActor, at })
        .thenRejects('error.access.forbidden');
    });

    it('lets a manager set a client’s password', () => {
      given([registered])
        .when({ type: 'SetPasswordByStaff', actor: managerActor, at })
        .then([{ type: 'UserPasswordSetByStaff', data: { userUuid, userRole: 'CLIENT', setAt: at.toISOString() } }]);
    });
  });

  describe('trial', () => {
    const trialUsed: UserEvent = {
      type: 'UserTrialUsed',
      data: { userUuid, userRole: 'CLIENT', usedAt: '2026-02-02T00:00:00.000Z' },
    };
    const trialRejected: UserEvent = {
      type: 'UserTrialRejected',
      data: { userUuid, userRole: 'CLIENT', rejectedAt: '2026-02-02T00:00:00.000Z' },
    };

    it('records a declined trial', () => {
      given([registered, confirmed])
        .when({ type: 'RejectTrial', at })
        .then([{ type: 'UserTrialRejected', data: { userUuid, userRole: 'CLIENT', rejectedAt: at.toISOString() } }]);
    });

    it('stays quiet when the trial was already declined', () => {
      given([registered, confirmed, trialRejected]).when({ type: 'RejectTrial', at }).then([]);
    });

    it('refuses to decline a trial already used', () => {
      given([registered, confirmed, trialUsed])
        .when({ type: 'RejectTrial', at })
        .thenRejects('error.trial.already.used');
    });

    it('refuses a second trial', () => {
      given([registered, confirmed, trialUsed])
        .when({ type: 'MarkTrialUsed', at })
        .thenRejects('error.trial.already.used');
    });
  });

  describe('notes', () => {
    const noteId = '44444444-4444-4444-8444-444444444444';
    const added: UserEvent = {
      type: 'UserNoteAdded',
      data: {
        userUuid,
        userRole: 'CLIENT',
        noteId,
        text: 'Called about a refund',
        addedAt: '2026-02-03T00:00:00.000Z',
      },
    };

    it('adds a note', () => {
      given([registered])
        .when({ type: 'AddNote', noteId, text: 'Called about a refund', at })
        .then([
          {
            type: 'UserNoteAdded',
            data: { userUuid, userRole: 'CLIENT', noteId, text: 'Called about a refund', addedAt: at.toISOString() },
          },
        ]);
    });

    it('deletes a note that exists', () => {
      given([registered, added])
        .when({ type: 'DeleteNote', noteId, at })
        .then([
          { type: 'UserNoteDeleted', data: { userUuid, userRole: 'CLIENT', noteId, deletedAt: at.toISOString() } },
        ]);
    });

    it('refuses to delete a note twice', () => {
      const deleted: UserEvent = {
        type: 'UserNoteDeleted',
        data: { userUuid, userRole: 'CLIENT', noteId, deletedAt: '2026-02-04T00:00:00.000Z' },
      };
      given([registered, added, deleted])
        .when({ type: 'DeleteNote', noteId, at })
        .thenRejects('error.entity.not.found');
    });
  });
});
