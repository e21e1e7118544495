import type { DataSource } from 'typeorm';
import type { Clock } from '../../../platform/clock';
import type { Sweep, SweepPass } from '../../../platform/jobs';
import { enqueueMails } from '../../../platform/mail';
import type { UserReader } from '../../identity';
import type { Broadcasts } from '../application/broadcasts';
import { recordNotifications } from '../application/client-notifications';
import { notificationChannels } from '../infrastructure/notification-preferences.store';
import { BROADCAST_RATE_WINDOW_MS, broadcastOccasionKey, handOffAllowance } from '../domain/broadcast';
import { broadcastOutboxMail } from '../infrastructure/broadcast-mail';
import { enqueueTelegramNotices } from '../infrastructure/telegram-outbox';

export const BROADCAST_DELIVERY_SWEEP = 'broadcast-delivery';
/** How often the hand-off looks for queued recipients; the rate, not this, decides how many go. */
export const BROADCAST_DELIVERY_INTERVAL_MS = 5_000;

interface QueuedRow {
  broadcast_id: string;
  user_uuid: string;
  subject_he: string;
  body_he: string;
  subject_en: string;
  body_en: string;
}

/**
 * Hands queued broadcast recipients to the mail outbox, the portal's list and the Telegram outbox (ADR 0091, 0104), oldest broadcast first, no
 * more in any minute than `ratePerMinute` (counted over every broadcast, from the rows handed in the last minute).
 * One transaction takes the recipients (`SKIP LOCKED`, so two processes never take one), writes each one's mail and
 * notification under its occasion key and marks the row handed: a crash before the commit leaves them queued, after it
 * handed, and a repeat writes nothing twice since both inserts are unique by the key.
 */
export class BroadcastDeliverySweep implements Sweep {
  readonly name = BROADCAST_DELIVERY_SWEEP;

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserReader,
    private readonly clock: Clock,
    private readonly ratePerMinute: number,
    /** Records `BroadcastHandedOff` for the broadcasts a pass finished (ADR 0091). */
    private readonly broadcasts: Pick<Broadcasts, 'recordFinishedHandOffs'>,
    readonly intervalMs: number = BROADCAST_DELIVERY_INTERVAL_MS,
  ) {}

  async sweep(): Promise<SweepPass> {
    const now = this.clock.now();
    const acted = await this.dataSource.transaction(async (manager) => {
      // One hand-off at a time across the fleet, so that two passes cannot both spend the same minute's allowance.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('broadcast-delivery'))");
      const [{ handed }]: Array<{ handed: number }> = await manager.query(
        'SELECT count(*)::int AS handed FROM broadcast_recipients WHERE handed_at > $1',
        [new Date(now.getTime() - BROADCAST_RATE_WINDOW_MS)],
      );
      const allowance = handOffAllowance(this.ratePerMinute, handed);
      if (allowance === 0) return 0;
      const rows: QueuedRow[] = await manager.query(
        `SELECT r.broadcast_id, r.user_uuid, b.subject_he, b.body_he, b.subject_en, b.body_en
           FROM broadcast_recipients r JOIN broadcasts b ON b.id = r.broadcast_id
          WHERE r.status = 'QUEUED'
          ORDER BY b.created_at, b.id, r.position LIMIT $1
          FOR UPDATE OF r SKIP LOCKED`,
        [allowance],
      );
      if (rows.length === 0) return 0;
      const users = new Map(
        (await this.users.findByUuids(rows.map((row) => row.user_uuid))).map((view) => [view.uuid, view]),
      );
      // Each recipient's `announcements` channels, in one query for the batch (ADR 0102): none at all is skipped.
      const channelsOf = await notificationChannels(
        manager,
        rows.map((row) => row.user_uuid),
      );
      const handedRows: QueuedRow[] = [];
      const skippedRows: QueuedRow[] = [];
      for (const row of rows)
        (channelsOf(row.user_uuid, 'announcements').length === 0 ? skippedRows : handedRows).push(row);
      const drafts = handedRows.flatMap((row) => {
        const user = users.get(row.user_uuid);
        if (!user) return [];
        const he = user.language === 'he';
        return [
          {
            key: broadcastOccasionKey(row.broadcast_id, row.user_uuid),
            user,
            chosen: channelsOf(row.user_uuid, 'announcements'),
            subject: he ? row.subject_he : row.subject_en,
            body: he ? row.body_he : row.body_en,
            broadcastId: row.broadcast_id,
          },
        ];
      });
      await recordNotifications(
        manager,
        drafts
          .filter((draft) => draft.chosen.includes('portal'))
          .map((draft) => ({
            occasionKey: draft.key,
            userUuid: draft.user.uuid,
            kind: 'announcement',
            params: {
              broadcastId: draft.broadcastId,
              subject: draft.subject,
              body: draft.body,
              link: '/notifications',
            },
          })),
        now,
      );
      await enqueueMails(
        manager,
        drafts
          .filter((draft) => draft.chosen.includes('email'))
          .map((draft) =>
            broadcastOutboxMail(draft.key, draft.user, {
              broadcastId: draft.broadcastId,
              userUuid: draft.user.uuid,
              firstName: draft.user.firstName,
              subject: draft.subject,
              body: draft.body,
            }),
          ),
        now,
      );
      // In the chat of those who switched announcements on for Telegram (off by default, ADR 0102) and linked one.
      await enqueueTelegramNotices(
        manager,
        drafts
          .filter((draft) => draft.chosen.includes('telegram'))
          .map((draft) => ({
            dedupeKey: draft.key,
            userUuid: draft.user.uuid,
            kind: 'announcement' as const,
            params: { subject: draft.subject, body: draft.body, link: '/notifications' },
            language: draft.user.language,
          })),
        now,
      );
      // A client who switched announcements off everywhere after the send is left out too, and shown as skipped.
      for (const [status, group] of [
        ['HANDED', handedRows],
        ['SKIPPED_UNSUBSCRIBED', skippedRows],
      ] as const) {
        if (group.length === 0) continue;
        await manager.query(
          `UPDATE broadcast_recipients r SET status = $1, handed_at = $2
             FROM unnest($3::uuid[], $4::uuid[]) AS h(broadcast_id, user_uuid)
            WHERE r.broadcast_id = h.broadcast_id AND r.user_uuid = h.user_uuid`,
          [
            status,
            status === 'HANDED' ? now : null,
            group.map((row) => row.broadcast_id),
            group.map((row) => row.user_uuid),
          ],
        );
      }
      return rows.length;
    });
    // After the hand-off's commit, in its own command per broadcast; one a crash skipped is found on the next pass.
    await this.broadcasts.recordFinishedHandOffs();
    // Another pass at once only while the minute's allowance was not the limit; otherwise the next run, later.
    return { acted, more: false };
  }
}
