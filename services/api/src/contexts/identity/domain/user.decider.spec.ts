import { deciderSpec } from '../../../test-support/decider-spec';
import {
  addNote,
  changeEmail,
  changePassword,
  changeRole,
  changeStatus,
  type CommandActor,
  confirmEmail,
  confirmStepUp,
  createUserByStaff,
  deleteNote,
  disableTwoFactor,
  enableTwoFactor,
  markTrialUsed,
  registerUser,
  rejectTrial,
  requestConfirmationMail,
  requestEmailChange,
  requestPasswordReset,
  resetPassword,
  recordViewAs,
  resetTwoFactor,
  setPasswordByStaff,
  updateProfile,
  userEvolution,
} from './user.decider';
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

const { given } = deciderSpec(userEvolution);

describe('user decider', () => {
  describe('RegisterUser', () => {
    const register = {
      userUuid,
      email: 'dana@example.com',
      firstName: 'דנה',
      lastName: 'לוי',
      profileId: '12345678',
      language: 'he' as const,
      referrerProfileId: '99999999',
      at,
    };

    it('registers a non-verified client', () => {
      given([])
        .when((state) => registerUser(register, state))
        .then([
          {
            type: 'UserRegistered',
            data: { ...registered.data, referrerProfileId: '99999999', registeredAt: at.toISOString() },
          } as UserEvent,
        ]);
    });

    it('refuses a second registration on the same stream', () => {
      given([registered])
        .when((state) => registerUser(register, state))
        .thenRejects('error.entity.already.exists');
    });
  });

  describe('CreateUserByStaff', () => {
    it('creates an active account with the requested role', () => {
      given([])
        .when((state) =>
          createUserByStaff(
            {
              userUuid,
              email: 'm@example.com',
              firstName: 'M',
              lastName: 'N',
              profileId: '10000000',
              language: 'en',
              role: 'MANAGER',
              at,
            },
            state,
          ),
        )
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
        .when((state) => confirmEmail({ at }, state))
        .then([
          {
            type: 'UserEmailConfirmed',
            data: { userUuid, userRole: 'CLIENT', status: 'ACTIVE', confirmedAt: at.toISOString() },
          },
        ]);
    });

    it('refuses an already active user', () => {
      given([registered, confirmed])
        .when((state) => confirmEmail({ at }, state))
        .thenRejects('error.account.already.active');
    });

    it('refuses a blocked user', () => {
      const blocked: UserEvent = {
        type: 'UserStatusChanged',
        data: { userUuid, userRole: 'CLIENT', previousStatus: 'NON_VERIFIED', status: 'BLOCKED' },
      };
      given([registered, blocked])
        .when((state) => confirmEmail({ at }, state))
        .thenRejects('error.account.blocked');
    });

    it('refuses a user that does not exist', () => {
      given([])
        .when((state) => confirmEmail({ at }, state))
        .thenRejects('error.user.not.found');
    });
  });

  describe('UpdateProfile', () => {
    it('records new names, by the user or by a manager', () => {
      for (const actor of [{ userUuid, role: 'CLIENT' as const }, managerActor]) {
        given([registered, confirmed])
          .when((state) => updateProfile({ firstName: 'Dana', lastName: 'Levi', actor }, state))
          .then([
            { type: 'UserProfileUpdated', data: { userUuid, userRole: 'CLIENT', firstName: 'Dana', lastName: 'Levi' } },
          ]);
      }
    });

    it('stays quiet when nothing changes', () => {
      given([registered])
        .when((state) => updateProfile({ firstName: 'דנה', lastName: 'לוי', actor: adminActor }, state))
        .then([]);
    });

    it('lets staff rename themselves, and an admin rename any staff member', () => {
      given([staffCreated('ADMIN')])
        .when((state) =>
          updateProfile({ firstName: 'Noa', lastName: 'Levi', actor: { userUuid, role: 'ADMIN' } }, state),
        )
        .then([
          { type: 'UserProfileUpdated', data: { userUuid, userRole: 'ADMIN', firstName: 'Noa', lastName: 'Levi' } },
        ]);
      given([staffCreated('MANAGER')])
        .when((state) => updateProfile({ firstName: 'Noa', lastName: 'Levi', actor: adminActor }, state))
        .then([
          { type: 'UserProfileUpdated', data: { userUuid, userRole: 'MANAGER', firstName: 'Noa', lastName: 'Levi' } },
        ]);
    });

    it('refuses a manager renaming an admin or another manager', () => {
      for (const role of ['ADMIN', 'MANAGER'] as const) {
        given([staffCreated(role)])
          .when((state) => updateProfile({ firstName: 'Mallory', lastName: 'Owned', actor: managerActor }, state))
          .thenRejects('error.access.forbidden', { reason: 'staff.account' });
      }
    });
  });

  describe('ChangePassword', () => {
    it('records the change at the command’s instant (the hash itself never enters an event)', () => {
      given([registered, confirmed])
        .when((state) => changePassword({ at }, state))
        .then([{ type: 'UserPasswordChanged', data: { userUuid, userRole: 'CLIENT', changedAt: at.toISOString() } }]);
    });

    it('names the role the user holds now, so the activity log files it correctly', () => {
      const promoted: UserEvent = {
        type: 'UserRoleChanged',
        data: { userUuid, previousRole: 'CLIENT', role: 'AMBASSADOR' },
      };
      given([registered, confirmed, promoted])
        .when((state) => changePassword({ at }, state))
        .then([
          { type: 'UserPasswordChanged', data: { userUuid, userRole: 'AMBASSADOR', changedAt: at.toISOString() } },
        ]);
      given([staffCreated('MANAGER')])
        .when((state) => changePassword({ at }, state))
        .then([{ type: 'UserPasswordChanged', data: { userUuid, userRole: 'MANAGER', changedAt: at.toISOString() } }]);
    });

    it('records every change, also a second one at the same instant', () => {
      const changed: UserEvent = {
        type: 'UserPasswordChanged',
        data: { userUuid, userRole: 'CLIENT', changedAt: at.toISOString() },
      };
      given([registered, confirmed, changed])
        .when((state) => changePassword({ at }, state))
        .then([changed]);
    });

    it('refuses a user that does not exist', () => {
      given([])
        .when((state) => changePassword({ at }, state))
        .thenRejects('error.user.not.found');
    });
  });

  describe('ResetPassword', () => {
    it('also proves the address of a non-verified user', () => {
      given([registered])
        .when((state) => resetPassword({ at }, state))
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
        .when((state) => resetPassword({ at }, state))
        .then([{ type: 'UserPasswordReset', data: { userUuid, userRole: 'CLIENT', resetAt: at.toISOString() } }]);
    });
  });

  describe('ChangeStatus', () => {
    it('blocks a client on a manager’s request', () => {
      given([registered, confirmed])
        .when((state) => changeStatus({ status: 'BLOCKED', actor: managerActor }, state))
        .then([
          {
            type: 'UserStatusChanged',
            data: { userUuid, userRole: 'CLIENT', previousStatus: 'ACTIVE', status: 'BLOCKED' },
          },
        ]);
    });

    it('stays quiet when the status is already the requested one', () => {
      given([registered, confirmed])
        .when((state) => changeStatus({ status: 'ACTIVE', actor: adminActor }, state))
        .then([]);
    });

    it('refuses staff changing their own status', () => {
      given([staffCreated('ADMIN')])
        .when((state) => changeStatus({ status: 'BLOCKED', actor: { userUuid, role: 'ADMIN' } }, state))
        .thenRejects('error.access.forbidden');
    });

    it('refuses a manager blocking another staff member', () => {
      given([staffCreated('MANAGER')])
        .when((state) => changeStatus({ status: 'BLOCKED', actor: managerActor }, state))
        .thenRejects('error.access.forbidden');
    });

    it('lets an admin block a manager', () => {
      given([staffCreated('MANAGER')])
        .when((state) => changeStatus({ status: 'BLOCKED', actor: adminActor }, state))
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
        .when((state) => changeRole({ role: 'AMBASSADOR', actor: managerActor }, state))
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'CLIENT', role: 'AMBASSADOR' } }]);
    });

    it('refuses a manager granting a staff role', () => {
      given([registered, confirmed])
        .when((state) => changeRole({ role: 'MANAGER', actor: managerActor }, state))
        .thenRejects('error.access.forbidden');
    });

    it('lets an admin grant a staff role', () => {
      given([registered, confirmed])
        .when((state) => changeRole({ role: 'ADMIN', actor: adminActor }, state))
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'CLIENT', role: 'ADMIN' } }]);
    });

    it('refuses anyone changing their own role', () => {
      given([staffCreated('ADMIN')])
        .when((state) => changeRole({ role: 'CLIENT', actor: { userUuid, role: 'ADMIN' } }, state))
        .thenRejects('error.access.forbidden');
    });

    it('lets the system restore the bootstrap admin', () => {
      given([staffCreated('MANAGER')])
        .when((state) => changeRole({ role: 'ADMIN', actor: null }, state))
        .then([{ type: 'UserRoleChanged', data: { userUuid, previousRole: 'MANAGER', role: 'ADMIN' } }]);
    });
  });

  describe('SetPasswordByStaff', () => {
    it('refuses a manager setting an admin’s password', () => {
      given([staffCreated('ADMIN')])
        .when((state) => setPasswordByStaff({ actor: managerActor, at }, state))
        .thenRejects('error.access.forbidden');
    });

    it('lets a manager set a client’s password', () => {
      given([registered])
        .when((state) => setPasswordByStaff({ actor: managerActor, at }, state))
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
        .when((state) => rejectTrial({ at }, state))
        .then([{ type: 'UserTrialRejected', data: { userUuid, userRole: 'CLIENT', rejectedAt: at.toISOString() } }]);
    });

    it('stays quiet when the trial was already declined', () => {
      given([registered, confirmed, trialRejected])
        .when((state) => rejectTrial({ at }, state))
        .then([]);
    });

    it('refuses to decline a trial already used', () => {
      given([registered, confirmed, trialUsed])
        .when((state) => rejectTrial({ at }, state))
        .thenRejects('error.trial.already.used');
    });

    it('marks the trial used once', () => {
      given([registered, confirmed])
        .when((state) => markTrialUsed({ at }, state))
        .then([{ type: 'UserTrialUsed', data: { userUuid, userRole: 'CLIENT', usedAt: at.toISOString() } }]);
    });

    it('refuses the trial once it was declined', () => {
      given([registered, confirmed, trialRejected])
        .when((state) => markTrialUsed({ at }, state))
        .thenRejects('error.trial.already.used');
    });

    it('refuses a second trial', () => {
      given([registered, confirmed, trialUsed])
        .when((state) => markTrialUsed({ at }, state))
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
        .when((state) => addNote({ noteId, text: 'Called about a refund', at }, state))
        .then([
          {
            type: 'UserNoteAdded',
            data: { userUuid, userRole: 'CLIENT', noteId, text: 'Called about a refund', addedAt: at.toISOString() },
          },
        ]);
    });

    it('deletes a note that exists', () => {
      given([registered, added])
        .when((state) => deleteNote({ noteId, at }, state))
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
        .when((state) => deleteNote({ noteId, at }, state))
        .thenRejects('error.entity.not.found');
    });
  });
  describe('RequestConfirmationMail', () => {
    it('asks for the mail again for an account that waits for confirmation, in the language asked for', () => {
      given([registered])
        .when((state) => requestConfirmationMail({ language: 'en', at }, state))
        .then([
          {
            type: 'UserConfirmationMailRequested',
            data: { userUuid, userRole: 'CLIENT', language: 'en', requestedAt: at.toISOString() },
          },
        ]);
    });

    it('appends nothing for a confirmed, blocked or unknown account', () => {
      given([registered, confirmed])
        .when((state) => requestConfirmationMail({ language: 'he', at }, state))
        .then([]);
      given([])
        .when((state) => requestConfirmationMail({ language: 'he', at }, state))
        .then([]);
    });
  });

  describe('RequestPasswordReset', () => {
    it('asks for a reset link for any existing account', () => {
      given([registered, confirmed])
        .when((state) => requestPasswordReset({ language: 'he', at }, state))
        .then([
          {
            type: 'UserPasswordResetRequested',
            data: { userUuid, userRole: 'CLIENT', language: 'he', requestedAt: at.toISOString() },
          },
        ]);
    });

    it('appends nothing for an unknown account', () => {
      given([])
        .when((state) => requestPasswordReset({ language: 'he', at }, state))
        .then([]);
    });
  });

  describe('two-factor sign-in', () => {
    const enabled = (role: 'ADMIN' | 'MANAGER'): UserEvent => ({
      type: 'UserTwoFactorEnabled',
      data: { userUuid, userRole: role, enabledAt: '2026-02-02T00:00:00.000Z' },
    });

    it('turns it on for a staff member, once', () => {
      given([staffCreated('MANAGER')])
        .when((state) => enableTwoFactor({ at }, state))
        .then([{ type: 'UserTwoFactorEnabled', data: { userUuid, userRole: 'MANAGER', enabledAt: at.toISOString() } }]);
      given([staffCreated('MANAGER'), enabled('MANAGER')])
        .when((state) => enableTwoFactor({ at }, state))
        .thenRejects('error.otp.already.enabled');
    });

    it('is for clients and ambassadors too (ADR 0098)', () => {
      given([registered, confirmed])
        .when((state) => enableTwoFactor({ at }, state))
        .then([{ type: 'UserTwoFactorEnabled', data: { userUuid, userRole: 'CLIENT', enabledAt: at.toISOString() } }]);
    });

    it('lets an admin reset a client’s, and refuses a manager (the route is for admins; the rails allow it)', () => {
      const clientEnabled: UserEvent = {
        type: 'UserTwoFactorEnabled',
        data: { userUuid, userRole: 'CLIENT', enabledAt: '2026-02-02T00:00:00.000Z' },
      };
      given([registered, confirmed, clientEnabled])
        .when((state) => resetTwoFactor({ actor: adminActor, at }, state))
        .then([{ type: 'UserTwoFactorReset', data: { userUuid, userRole: 'CLIENT', resetAt: at.toISOString() } }]);
    });

    it('is turned off by its owner only while it is on', () => {
      given([staffCreated('ADMIN'), enabled('ADMIN')])
        .when((state) => disableTwoFactor({ at }, state))
        .then([{ type: 'UserTwoFactorDisabled', data: { userUuid, userRole: 'ADMIN', disabledAt: at.toISOString() } }]);
      given([staffCreated('ADMIN')])
        .when((state) => disableTwoFactor({ at }, state))
        .thenRejects('error.otp.not.enabled');
    });

    it('lets an admin reset another staff member’s, and a repeated reset appends nothing', () => {
      given([staffCreated('MANAGER'), enabled('MANAGER')])
        .when((state) => resetTwoFactor({ actor: adminActor, at }, state))
        .then([{ type: 'UserTwoFactorReset', data: { userUuid, userRole: 'MANAGER', resetAt: at.toISOString() } }]);
      const reset: UserEvent = {
        type: 'UserTwoFactorReset',
        data: { userUuid, userRole: 'MANAGER', resetAt: at.toISOString() },
      };
      given([staffCreated('MANAGER'), enabled('MANAGER'), reset])
        .when((state) => resetTwoFactor({ actor: adminActor, at }, state))
        .then([]);
    });

    it('refuses a manager resetting staff and anyone resetting their own through the admin route', () => {
      given([staffCreated('ADMIN'), enabled('ADMIN')])
        .when((state) => resetTwoFactor({ actor: managerActor, at }, state))
        .thenRejects('error.access.forbidden', { reason: 'staff.account' });
      given([staffCreated('ADMIN'), enabled('ADMIN')])
        .when((state) => resetTwoFactor({ actor: { userUuid, role: 'ADMIN' }, at }, state))
        .thenRejects('error.access.forbidden', { reason: 'own.account' });
    });

    it('is asked again after a reset: enabling works anew', () => {
      const reset: UserEvent = {
        type: 'UserTwoFactorReset',
        data: { userUuid, userRole: 'MANAGER', resetAt: '2026-02-03T00:00:00.000Z' },
      };
      given([staffCreated('MANAGER'), enabled('MANAGER'), reset])
        .when((state) => enableTwoFactor({ at }, state))
        .then([{ type: 'UserTwoFactorEnabled', data: { userUuid, userRole: 'MANAGER', enabledAt: at.toISOString() } }]);
    });
  });

  describe('step-up (ADR 0098)', () => {
    const clientEnabled: UserEvent = {
      type: 'UserTwoFactorEnabled',
      data: { userUuid, userRole: 'CLIENT', enabledAt: '2026-02-02T00:00:00.000Z' },
    };
    const clientDisabled: UserEvent = {
      type: 'UserTwoFactorDisabled',
      data: { userUuid, userRole: 'CLIENT', disabledAt: '2026-02-03T00:00:00.000Z' },
    };

    it('asks nothing of an account without two-factor sign-in, whatever it sends', () => {
      for (const check of ['NONE', 'WRONG', 'REUSED', 'FRESH'] as const) {
        given([registered, confirmed])
          .when((state) => confirmStepUp({ check }, state))
          .then([]);
        given([registered, confirmed, clientEnabled, clientDisabled])
          .when((state) => confirmStepUp({ check }, state))
          .then([]);
      }
    });

    it('with it on, lets a fresh code through and appends nothing itself', () => {
      given([registered, confirmed, clientEnabled])
        .when((state) => confirmStepUp({ check: 'FRESH' }, state))
        .then([]);
    });

    it('with it on, refuses a missing, a wrong and a reused code, each with its own code', () => {
      given([registered, confirmed, clientEnabled])
        .when((state) => confirmStepUp({ check: 'NONE' }, state))
        .thenRejects('error.otp.step.up.required');
      given([registered, confirmed, clientEnabled])
        .when((state) => confirmStepUp({ check: 'WRONG' }, state))
        .thenRejects('error.otp.invalid');
      given([registered, confirmed, clientEnabled])
        .when((state) => confirmStepUp({ check: 'REUSED' }, state))
        .thenRejects('error.otp.reused');
    });

    it('refuses an unknown account', () => {
      given([])
        .when((state) => confirmStepUp({ check: 'FRESH' }, state))
        .thenRejects('error.user.not.found');
    });
  });

  describe('view as the client (ADR 0092)', () => {
    const viewId = '44444444-4444-4444-8444-444444444444';

    it('records an opening and each request, the staff member being the actor', () => {
      given([registered, confirmed])
        .when((state) => recordViewAs({ actor: managerActor, viewId, page: null, at }, state))
        .then([
          {
            type: 'UserViewedByStaff',
            data: { userUuid, userRole: 'CLIENT', viewId, page: null, viewedAt: at.toISOString() },
          },
        ]);
      given([registered, confirmed])
        .when((state) => recordViewAs({ actor: adminActor, viewId, page: 'GET /api/users/me', at }, state))
        .then([
          {
            type: 'UserViewedByStaff',
            data: { userUuid, userRole: 'CLIENT', viewId, page: 'GET /api/users/me', viewedAt: at.toISOString() },
          },
        ]);
    });

    it('refuses staff accounts, clients as viewers and unknown users', () => {
      given([staffCreated('MANAGER')])
        .when((state) => recordViewAs({ actor: adminActor, viewId, page: null, at }, state))
        .thenRejects('error.view.as.staff.account');
      given([registered, confirmed])
        .when((state) =>
          recordViewAs({ actor: { userUuid: adminActor.userUuid, role: 'CLIENT' }, viewId, page: null, at }, state),
        )
        .thenRejects('error.access.forbidden', { reason: 'not.staff' });
      given([])
        .when((state) => recordViewAs({ actor: adminActor, viewId, page: null, at }, state))
        .thenRejects('error.user.not.found');
    });
  });

  describe('RequestEmailChange and ChangeEmail (docs/adr/0100-change-of-e-mail.md)', () => {
    const request = { newEmail: 'dana.new@example.com', addressTaken: false, language: 'en' as const, at };
    const requested: UserEvent = {
      type: 'UserEmailChangeRequested',
      data: {
        userUuid,
        userRole: 'CLIENT',
        newEmail: 'dana.new@example.com',
        currentEmail: 'dana@example.com',
        language: 'en',
        requestedAt: at.toISOString(),
      },
    };
    const blocked: UserEvent = {
      type: 'UserStatusChanged',
      data: { userUuid, userRole: 'CLIENT', previousStatus: 'ACTIVE', status: 'BLOCKED' },
    };

    it('records the request with both addresses and changes nothing yet', () => {
      given([registered, confirmed])
        .when((state) => requestEmailChange(request, state))
        .then([requested]);
    });

    it('refuses the address the account already has', () => {
      given([registered, confirmed])
        .when((state) => requestEmailChange({ ...request, newEmail: 'dana@example.com' }, state))
        .thenRejects('error.login.already.in.use');
    });

    it("refuses an address another account holds, with the sign-up's code", () => {
      given([registered, confirmed])
        .when((state) => requestEmailChange({ ...request, addressTaken: true }, state))
        .thenRejects('error.login.already.in.use');
    });

    it('refuses a blocked account', () => {
      given([registered, confirmed, blocked])
        .when((state) => requestEmailChange(request, state))
        .thenRejects('error.account.blocked');
    });

    it('moves the account to the new address when the link is followed', () => {
      given([registered, confirmed, requested])
        .when((state) => changeEmail({ newEmail: 'dana.new@example.com', addressTaken: false, at }, state))
        .then([
          {
            type: 'UserEmailChanged',
            data: {
              userUuid,
              userRole: 'CLIENT',
              previousEmail: 'dana@example.com',
              email: 'dana.new@example.com',
              changedAt: at.toISOString(),
            },
          },
        ]);
    });

    it('refuses an address another account took meanwhile, with a code of its own', () => {
      given([registered, confirmed, requested])
        .when((state) => changeEmail({ newEmail: 'dana.new@example.com', addressTaken: true, at }, state))
        .thenRejects('error.email.change.address.taken');
    });

    it('a later change starts from the address the account moved to', () => {
      const changed: UserEvent = {
        type: 'UserEmailChanged',
        data: {
          userUuid,
          userRole: 'CLIENT',
          previousEmail: 'dana@example.com',
          email: 'dana.new@example.com',
          changedAt: at.toISOString(),
        },
      };
      given([registered, confirmed, requested, changed])
        .when((state) => changeEmail({ newEmail: 'dana.new@example.com', addressTaken: false, at }, state))
        .thenRejects('error.login.already.in.use');
      given([registered, confirmed, requested, changed])
        .when((state) => requestEmailChange({ ...request, newEmail: 'dana@example.com' }, state))
        .then([
          {
            type: 'UserEmailChangeRequested',
            data: { ...requested.data, newEmail: 'dana@example.com', currentEmail: 'dana.new@example.com' },
          } as UserEvent,
        ]);
    });

    it("refuses a blocked account's link", () => {
      given([registered, confirmed, requested, blocked])
        .when((state) => changeEmail({ newEmail: 'dana.new@example.com', addressTaken: false, at }, state))
        .thenRejects('error.account.blocked');
    });
  });
});
