import { Injectable } from '@nestjs/common';
import { defaultNotificationPreferences, isStaffRole, type NotificationPreferences } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../kernel';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/http';
import { UserReader } from '../../identity';
import { changePreferences, type NotificationPreferencesInput } from '../domain/notification-preferences';
import { preferencesOf, savePreferences } from '../infrastructure/notification-preferences.store';

/**
 * Reading and replacing one person's notification preferences (docs/adr/0102-notification-preferences.md): the pure
 * rule decides, the row is replaced whole, so two tabs saving at once end with one of the two settings, never a mix.
 */
@Injectable()
export class NotificationPreferencesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  async of(userUuid: string): Promise<NotificationPreferences> {
    const preferences = (await preferencesOf(this.dataSource.manager, [userUuid])).get(userUuid);
    assert(preferences, 'preferencesOf answers for every uuid asked');
    return preferences;
  }

  /** Staff read a client's (an ambassador's) preferences; a staff account's, like an unknown one, is not found. */
  async ofClient(userUuid: string): Promise<NotificationPreferences> {
    const user = await this.users.findByUuid(userUuid);
    if (!user || isStaffRole(user.role)) throw new ApiError('error.user.not.found');
    return this.of(userUuid);
  }

  /** PUT: the request is the whole setting; what it leaves out is the default (ADR 0102). */
  async replace(userUuid: string, input: NotificationPreferencesInput): Promise<NotificationPreferences> {
    const changed = changePreferences(defaultNotificationPreferences(), {
      channels: input.channels ?? {},
      leadDays: input.leadDays ?? null,
      lowBalanceThresholdMinor: input.lowBalanceThresholdMinor ?? null,
      quietHours: input.quietHours ?? null,
    });
    await savePreferences(this.dataSource.manager, userUuid, changed, this.clock.now());
    return changed;
  }
}
