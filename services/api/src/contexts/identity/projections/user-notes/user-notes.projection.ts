import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import type { UserEventDataByType } from '../../domain/user.events';

/** Keeps `user_notes` in step with note events; the author comes from the event's actor. */
export class UserNotesProjection implements InlineProjection {
  readonly name = 'user-notes';
  readonly handles = ['UserNoteAdded', 'UserNoteDeleted'] as const;
  readonly tables = ['user_notes'];
  readonly replayChecked = [{ table: 'user_notes', key: ['id'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const event of events) {
      if (event.type === 'UserNoteAdded') {
        const data = event.data as UserEventDataByType['UserNoteAdded'];
        await manager.query(
          `INSERT INTO user_notes (id, user_uuid, text, created_at, created_by_id, created_by_name) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO NOTHING`,
          [data.noteId, data.userUuid, data.text, data.addedAt, event.metadata.actor.id, event.metadata.actor.name],
        );
      } else if (event.type === 'UserNoteDeleted') {
        const data = event.data as UserEventDataByType['UserNoteDeleted'];
        await manager.query(`DELETE FROM user_notes WHERE id = $1`, [data.noteId]);
      }
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM user_notes`);
  }
}
