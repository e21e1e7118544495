import { EventStore1763800000000 } from './1763800000000-event-store';
import { MailOutbox1767300000000 } from './1767300000000-mail-outbox';
import { SandboxCashier1767800000500 } from './1767800000500-sandbox-cashier';
import { SandboxCard1768400008000 } from './1768400008000-sandbox-card';
import { RateLimitWindows1768400005700 } from './1768400005700-rate-limit-windows';
import { EventCommitOrder1768400005800 } from './1768400005800-event-commit-order';
import { MailOutboxSealedMessage1768400006600 } from './1768400006600-mail-outbox-sealed-message';
import { JobSchedules1768400006700 } from './1768400006700-job-schedules';
import { SandboxCardSavedCards1768700008700 } from './1768700008700-sandbox-card-saved-cards';
import { TelegramUpdates1770600010300 } from './1770600010300-telegram-updates';
import { MailOutboxPriority1771000010700 } from './1771000010700-mail-outbox-priority';
import { WriterWalPositions1771200011300 } from './1771200011300-writer-wal-positions';
import { KafkaRepublishRuns1771600011600 } from './1771600011600-kafka-republish-runs';
import { EventIdsWithoutIndex1772400012700 } from './1772400012700-event-ids-without-index';
import { EventCommitsPerTransaction1772400012800 } from './1772400012800-event-commits-per-transaction';

/**
 * Migrations of the platform (the event store and its commit order, the mail outbox, its sealed renderings and its priorities, the
 * sandbox cashier and the sandbox card, the rate limiter's counters, the schedules of recurring jobs, the Telegram updates handled, the writers' WAL positions for the read replica, the runs of `kupa events republish`, the event ids without their index, one commit row per transaction), in the order of their timestamps
 * like every other migration.
 */
export const platformMigrations = [
  EventStore1763800000000,
  MailOutbox1767300000000,
  SandboxCashier1767800000500,
  RateLimitWindows1768400005700,
  EventCommitOrder1768400005800,
  MailOutboxSealedMessage1768400006600,
  JobSchedules1768400006700,
  SandboxCard1768400008000,
  SandboxCardSavedCards1768700008700,
  TelegramUpdates1770600010300,
  MailOutboxPriority1771000010700,
  WriterWalPositions1771200011300,
  KafkaRepublishRuns1771600011600,
  EventIdsWithoutIndex1772400012700,
  EventCommitsPerTransaction1772400012800,
];
