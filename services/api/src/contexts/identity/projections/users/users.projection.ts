import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { ALL_USER_EVENT_TYPES, type UserEvent } from '../../domain/user.events';

/**
 * Keeps `users` in step with the user streams inside the append transaction, so a command's answer (and the
 * unique e-mail and profile ID indexes) see the new state at once. A unique violation here aborts the append.
 */
export class UsersProjection implements InlineProjection {
  /**
   * `changed` hears of every row this projection writes (`*` for all of them), with the transaction it writes in:
   * the actor cache drops the user's view when that transaction commits, so that this process's next request reads
   * it again (docs/adr/0046-actor-cache.md).
   */
  constructor(private readonly changed: (manager: EntityManager, userUuid: string) => void = () => undefined) {}

  readonly name = 'users';
  /** Notes and mail requests (a change of e-mail's too) change nothing in `users`. */
  readonly handles = ALL_USER_EVENT_TYPES.filter(
    (type) =>
      type !== 'UserNoteAdded' &&
      type !== 'UserNoteDeleted' &&
      type !== 'UserConfirmationMailRequested' &&
      type !== 'UserPasswordResetRequested' &&
      type !== 'UserEmailChangeRequested',
  );
  readonly tables = ['users'];
  readonly replayChecked = [{ table: 'users', key: ['uuid'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as UserEvent;
      await this.applyOne(event, recorded.metadata.occurredAt, manager);
    }
  }

  private async applyOne(event: UserEvent, occurredAt: string, manager: EntityManager): Promise<void> {
    switch (event.type) {
      case 'UserRegistered':
      case 'UserCreatedByStaff': {
        const data = event.data;
        const createdAt = event.type === 'UserRegistered' ? event.data.registeredAt : event.data.createdAt;
        const referrer = event.type === 'UserRegistered' ? event.data.referrerProfileId : null;
        await manager.query(
          `INSERT INTO users (uuid, email, first_name, last_name, role, status, profile_id, created_at, updated_at, language, referrer_profile_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10)
           ON CONFLICT (uuid) DO UPDATE SET email = $2, first_name = $3, last_name = $4, role = $5, status = $6, profile_id = $7,
             created_at = $8, updated_at = $8, language = $9, referrer_profile_id = $10, trial_used = false, trial_rejected = false,
             two_factor_enabled = false`,
          [
            data.userUuid,
            data.email,
            data.firstName,
            data.lastName,
            data.role,
            data.status,
            data.profileId,
            createdAt,
            data.language,
            referrer,
          ],
        );
        // A replayed registration overwrites the row it finds.
        this.changed(manager, data.userUuid);
        return;
      }
      case 'UserEmailConfirmed':
      case 'UserStatusChanged':
        return this.update(manager, event.data.userUuid, occurredAt, ', status = $3', [event.data.status]);
      case 'UserProfileUpdated':
        return this.update(manager, event.data.userUuid, occurredAt, ', first_name = $3, last_name = $4', [
          event.data.firstName,
          event.data.lastName,
        ]);
      // The unique e-mail index refuses an address another account took meanwhile, and with it the whole append.
      case 'UserEmailChanged':
        return this.update(manager, event.data.userUuid, occurredAt, ', email = $3', [event.data.email]);
      case 'UserRoleChanged':
        return this.update(manager, event.data.userUuid, occurredAt, ', role = $3', [event.data.role]);
      case 'UserTrialRejected':
        return this.update(manager, event.data.userUuid, occurredAt, ', trial_rejected = true', []);
      case 'UserTrialUsed':
        return this.update(manager, event.data.userUuid, occurredAt, ', trial_used = true', []);
      case 'UserTwoFactorEnabled':
        return this.update(manager, event.data.userUuid, occurredAt, ', two_factor_enabled = true', []);
      case 'UserTwoFactorDisabled':
      case 'UserTwoFactorReset':
        return this.update(manager, event.data.userUuid, occurredAt, ', two_factor_enabled = false', []);
      case 'UserPasswordChanged':
      case 'UserPasswordReset':
      case 'UserPasswordSetByStaff':
        return this.update(manager, event.data.userUuid, occurredAt, '', []);
      case 'UserNoteAdded':
      case 'UserNoteDeleted':
      case 'UserConfirmationMailRequested':
      case 'UserPasswordResetRequested':
      case 'UserEmailChangeRequested':
      case 'UserViewedByStaff':
      case 'UserSessionsEndedByStaff':
        return;
    }
  }

  private async update(
    manager: EntityManager,
    userUuid: string,
    occurredAt: string,
    assignments: string,
    values: unknown[],
  ): Promise<void> {
    await manager.query(`UPDATE users SET updated_at = $2${assignments} WHERE uuid = $1`, [
      userUuid,
      occurredAt,
      ...values,
    ]);
    this.changed(manager, userUuid);
  }

  /** Every row comes from the user streams, so a rebuild starts from an empty table. */
  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM users`);
    this.changed(manager, '*');
  }
}
