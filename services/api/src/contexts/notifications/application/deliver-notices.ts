import type { NotificationChannel, NotificationPreferenceKind } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { enqueueMails, type OutboxMail } from '../../../platform/mail';
import { notificationChannels } from '../infrastructure/notification-preferences.store';
import { enqueueTelegramNotices, type TelegramNotice } from '../infrastructure/telegram-outbox';
import { type NotificationDraft, recordNotifications } from './client-notifications';

/** One occasion to tell a person about, in whichever of its forms the writer has; the person's preference decides. */
export interface NoticeDelivery {
  userUuid: string;
  /** The preference kind that decides the channels (ADR 0102). */
  preference: NotificationPreferenceKind;
  portal?: NotificationDraft | null;
  mail?: OutboxMail | null;
  telegram?: TelegramNotice | null;
}

/**
 * Writes each occasion to the channels its person keeps for its kind, in the caller's transaction: one preferences
 * query for the batch (ADR 0102), then the portal notices, the mails and the Telegram messages, each under the
 * occasion's own key (ADR 0083, 0104). Answers how many portal notices were new: a writer whose occasion key is its
 * claim (a reminder) learns from it whether this run wrote the occasion first.
 */
export async function deliverNotices(
  manager: EntityManager,
  deliveries: readonly NoticeDelivery[],
  now: Date,
): Promise<number> {
  if (deliveries.length === 0) return 0;
  const channelsOf = await notificationChannels(
    manager,
    deliveries.map((delivery) => delivery.userUuid),
  );
  const chosen = <T>(form: (delivery: NoticeDelivery) => T | null | undefined, channel: NotificationChannel): T[] =>
    deliveries.flatMap((delivery) => {
      const written = form(delivery);
      return written && channelsOf(delivery.userUuid, delivery.preference).includes(channel) ? [written] : [];
    });
  const written = await recordNotifications(
    manager,
    chosen((delivery) => delivery.portal, 'portal'),
    now,
  );
  await enqueueMails(
    manager,
    chosen((delivery) => delivery.mail, 'email'),
    now,
  );
  await enqueueTelegramNotices(
    manager,
    chosen((delivery) => delivery.telegram, 'telegram'),
    now,
  );
  return written;
}
