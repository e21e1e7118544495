import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type {
  BroadcastDetail,
  BroadcastPreview,
  BroadcastRecipientStatus,
  BroadcastSummary,
  ClientFilterRequest,
  CreateBroadcastRequest,
  Language,
} from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/http';
import { ClientSelection, fullNameOf, UserReader } from '../../identity';
import { recipientsAtSend } from '../domain/broadcast';

/** How many broadcasts the console's list shows, newest first. */
export const BROADCAST_LIST_MAX = 100;

interface BroadcastRow {
  id: string;
  subject_he: string;
  body_he: string;
  subject_en: string;
  body_en: string;
  filter: ClientFilterRequest;
  created_by: string;
  created_at: Date;
  recipients: string;
  queued: string;
  sent: string;
  skipped: string;
  failed: string;
}

/**
 * Counts per broadcast of where its recipients stand: a handed recipient's state is its outbox mail's (sent, retrying
 * after a failure, or waiting), joined on the occasion key the hand-off wrote it under.
 */
const SUMMARY_SQL = `
  SELECT b.id, b.subject_he, b.body_he, b.subject_en, b.body_en, b.filter, b.created_by, b.created_at,
         count(r.user_uuid)::text AS recipients,
         count(*) FILTER (WHERE r.status = 'QUEUED')::text AS queued,
         count(*) FILTER (WHERE r.status = 'HANDED' AND m.sent_at IS NOT NULL AND NOT m.skipped)::text AS sent,
         count(*) FILTER (WHERE r.status = 'SKIPPED_UNSUBSCRIBED' OR m.skipped)::text AS skipped,
         count(*) FILTER (WHERE r.status = 'HANDED' AND m.sent_at IS NULL AND m.last_error IS NOT NULL)::text AS failed
    FROM broadcasts b
    LEFT JOIN broadcast_recipients r ON r.broadcast_id = b.id
    LEFT JOIN mail_outbox m ON m.dedupe_key = 'broadcast:' || b.id || ':' || r.user_uuid`;

/**
 * An admin's broadcasts (docs/adr/0091-broadcasts.md): the preview count, the send that freezes the recipients, and
 * what the console reads. The hand-off to the outbox is the `broadcast-delivery` sweep's, at the configured rate.
 */
@Injectable()
export class Broadcasts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clients: ClientSelection,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  async preview(filter: ClientFilterRequest): Promise<BroadcastPreview> {
    const { userUuids } = await this.clients.select(filter);
    const optedOut = await this.optedOutAmong(this.dataSource.manager, userUuids);
    return { recipients: userUuids.length, unsubscribed: optedOut.size };
  }

  /** Freezes the recipients the filter matches now and queues them; the sweep hands them to the outbox. */
  async create(request: CreateBroadcastRequest, createdBy: string): Promise<BroadcastDetail> {
    const { userUuids } = await this.clients.select(request.filter);
    const id = randomUUID();
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      const recipients = recipientsAtSend(userUuids, await this.optedOutAmong(manager, userUuids));
      await manager.query(
        `INSERT INTO broadcasts (id, subject_he, body_he, subject_en, body_en, filter, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, request.subjectHe, request.bodyHe, request.subjectEn, request.bodyEn, request.filter, createdBy, now],
      );
      await manager.query(
        `INSERT INTO broadcast_recipients (broadcast_id, user_uuid, position, status)
         SELECT $1, user_uuid, position, status
           FROM unnest($2::uuid[], $3::int[], $4::text[]) AS r(user_uuid, position, status)`,
        [
          id,
          recipients.map((recipient) => recipient.userUuid),
          recipients.map((_, position) => position),
          recipients.map((recipient) => recipient.status),
        ],
      );
    });
    return this.detail(id);
  }

  async list(): Promise<BroadcastSummary[]> {
    const rows: BroadcastRow[] = await this.dataSource.query(
      `${SUMMARY_SQL} GROUP BY b.id ORDER BY b.created_at DESC, b.id DESC LIMIT $1`,
      [BROADCAST_LIST_MAX],
    );
    return rows.map(toSummary);
  }

  async detail(id: string): Promise<BroadcastDetail> {
    const [row]: BroadcastRow[] = await this.dataSource.query(`${SUMMARY_SQL} WHERE b.id = $1 GROUP BY b.id`, [id]);
    if (!row) throw new ApiError('error.broadcast.not.found');
    const recipients: Array<{
      user_uuid: string;
      status: string;
      sent_at: Date | null;
      skipped: boolean | null;
      last_error: string | null;
    }> = await this.dataSource.query(
      `SELECT r.user_uuid, r.status, m.sent_at, m.skipped, m.last_error
         FROM broadcast_recipients r
         LEFT JOIN mail_outbox m ON m.dedupe_key = 'broadcast:' || r.broadcast_id || ':' || r.user_uuid
        WHERE r.broadcast_id = $1 ORDER BY r.position`,
      [id],
    );
    const views = new Map(
      (await this.users.findByUuids(recipients.map((r) => r.user_uuid))).map((view) => [view.uuid, view]),
    );
    return {
      ...toSummary(row),
      recipientList: recipients.map((recipient) => {
        const view = views.get(recipient.user_uuid);
        return {
          userUuid: recipient.user_uuid,
          email: view?.email ?? '',
          fullName: view ? fullNameOf(view) : '',
          language: (view?.language ?? 'he') as Language,
          status: recipientStatus(recipient),
        };
      }),
    };
  }

  async announcementsOn(userUuid: string): Promise<boolean> {
    const optedOut = await this.optedOutAmong(this.dataSource.manager, [userUuid]);
    return !optedOut.has(userUuid);
  }

  /** Switches announcements off or on for one client; doing it twice changes nothing. */
  async setAnnouncements(userUuid: string, on: boolean): Promise<void> {
    if (on) await this.dataSource.query('DELETE FROM announcement_opt_outs WHERE user_uuid = $1', [userUuid]);
    else
      await this.dataSource.query(
        'INSERT INTO announcement_opt_outs (user_uuid, opted_out_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [userUuid, this.clock.now()],
      );
  }

  async optedOutAmong(manager: EntityManager, userUuids: readonly string[]): Promise<Set<string>> {
    if (userUuids.length === 0) return new Set();
    const rows: Array<{ user_uuid: string }> = await manager.query(
      'SELECT user_uuid FROM announcement_opt_outs WHERE user_uuid = ANY($1::uuid[])',
      [userUuids],
    );
    return new Set(rows.map((row) => row.user_uuid));
  }
}

function recipientStatus(recipient: {
  status: string;
  sent_at: Date | null;
  skipped: boolean | null;
  last_error: string | null;
}): BroadcastRecipientStatus {
  if (recipient.status === 'QUEUED') return 'QUEUED';
  // Skipped at the send, or by the outbox: the client switched announcements off before their mail went out.
  if (recipient.status === 'SKIPPED_UNSUBSCRIBED' || recipient.skipped) return 'SKIPPED_UNSUBSCRIBED';
  if (recipient.sent_at !== null) return 'SENT';
  return recipient.last_error !== null ? 'FAILED' : 'PENDING';
}

function toSummary(row: BroadcastRow): BroadcastSummary {
  const queued = Number(row.queued);
  return {
    id: row.id,
    subjectHe: row.subject_he,
    bodyHe: row.body_he,
    subjectEn: row.subject_en,
    bodyEn: row.body_en,
    filter: row.filter,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    status: queued > 0 ? 'SENDING' : 'DONE',
    recipients: Number(row.recipients),
    queued,
    sent: Number(row.sent),
    skipped: Number(row.skipped),
    failed: Number(row.failed),
  };
}
