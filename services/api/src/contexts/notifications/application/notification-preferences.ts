import { Injectable } from '@nestjs/common';
import {
  defaultNotificationPreferences,
  isStaffRole,
  type UserRole,
  type NotificationPreferences,
  notificationPreferencesStreamId,
} from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../kernel';
import type { RequestContext } from '../../../platform/auth';
import { CommandPipeline, foldedStreamKind } from '../../../platform/commands';
import { ApiError } from '../../../platform/http';
import { UserReader } from '../../identity';
import { changePreferences, type NotificationPreferencesInput } from '../domain/notification-preferences';
import { notificationPreferencesEvolution, recordPreferencesChange } from '../domain/notification-preferences.decider';
import { preferencesOf, savePreferences } from '../infrastructure/notification-preferences.store';

const PREFERENCES_STREAMS = foldedStreamKind(notificationPreferencesEvolution, (id) =>
  notificationPreferencesStreamId(String(id)),
);

/**
 * Reading and replacing one person's notification preferences (docs/adr/0102-notification-preferences.md): the pure
 * rule decides, the row is replaced whole, so two tabs saving at once end with one of the two settings, never a mix.
 * Each save that changes something appends `NotificationPreferencesChanged` with the row (ADR 0105).
 */
@Injectable()
export class NotificationPreferencesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserReader,
    private readonly pipeline: CommandPipeline,
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
  async replace(
    userUuid: string,
    input: NotificationPreferencesInput,
    context: RequestContext,
  ): Promise<NotificationPreferences> {
    return this.change(userUuid, context, (_current, role) =>
      changePreferences(
        defaultNotificationPreferences(),
        {
          channels: input.channels ?? {},
          leadDays: input.leadDays ?? null,
          lowBalanceThresholdMinor: input.lowBalanceThresholdMinor ?? null,
          quietHours: input.quietHours ?? null,
        },
        { staff: isStaffRole(role) },
      ),
    );
  }

  /**
   * Any change of one person's setting, from what they have now: under the stream's lock, so two saves queue; the
   * row and the event that tells the change commit together, and a save that changes nothing writes neither.
   */
  async change(
    userUuid: string,
    context: RequestContext,
    next: (current: NotificationPreferences, role: UserRole) => NotificationPreferences,
  ): Promise<NotificationPreferences> {
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    const read: { current: NotificationPreferences | null } = { current: null };
    const { result } = await this.pipeline.run({
      context,
      streams: { preferences: PREFERENCES_STREAMS.ref(userUuid) },
      prepare: async (tx) => {
        read.current = (await preferencesOf(tx.manager, [userUuid])).get(userUuid) ?? null;
      },
      decide: (_loaded, { at }) => {
        assert(read.current, 'preferencesOf answers for every uuid asked');
        const changed = next(read.current, user.role);
        const events = recordPreferencesChange({
          userUuid,
          userRole: user.role,
          previous: read.current,
          next: changed,
          at,
        });
        return { events: { preferences: events }, result: changed };
      },
      alongside: async (tx, decision, { at }) => {
        if ((decision.events.preferences ?? []).length > 0)
          await savePreferences(tx.manager, userUuid, decision.result, at);
      },
    });
    return result;
  }
}
