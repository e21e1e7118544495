import { randomUUID } from 'node:crypto';
import type { NotificationKind, NotificationParams } from '@kupa/proto';
import type { EntityManager } from 'typeorm';

/** A notification to keep for a client; its occasion key is also the dedupe key of the mail that tells the same. */
export interface NotificationDraft {
  occasionKey: string;
  userUuid: string;
  kind: NotificationKind;
  params: NotificationParams;
}

/**
 * Keeps the notifications, each at most once per occasion, in the caller's transaction, which also queues the mails
 * under the same keys (ADR 0083). A second writer of the same occasion waits on the unique key and then writes
 * nothing, so two sweeps at once or a retried processor batch tell a client once. Returns how many were new.
 */
export async function recordNotifications(
  manager: EntityManager,
  drafts: readonly NotificationDraft[],
  now: Date,
): Promise<number> {
  if (drafts.length === 0) return 0;
  // In key order, so that two writers of overlapping batches wait on each other instead of deadlocking.
  const sorted = [...drafts].sort((a, b) => a.occasionKey.localeCompare(b.occasionKey));
  const written: Array<{ id: string }> = await manager.query(
    `INSERT INTO client_notifications (id, occasion_key, user_uuid, kind, params, created_at)
     SELECT id, occasion_key, user_uuid, kind, params, $6
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::jsonb[])
         AS n(id, occasion_key, user_uuid, kind, params)
     ON CONFLICT (occasion_key) DO NOTHING RETURNING id`,
    [
      sorted.map(() => randomUUID()),
      sorted.map((draft) => draft.occasionKey),
      sorted.map((draft) => draft.userUuid),
      sorted.map((draft) => draft.kind),
      sorted.map((draft) => JSON.stringify(draft.params)),
      now,
    ],
  );
  return written.length;
}
