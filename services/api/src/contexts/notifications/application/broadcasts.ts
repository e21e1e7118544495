import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastRecipientStatus,
  type BroadcastSummary,
  broadcastStreamId,
  type ClientFilterRequest,
  type CreateBroadcastRequest,
  type Language,
  NOTIFICATION_KIND_RULES,
} from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { type RequestContext, systemContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { CommandPipeline, foldedStreamKind } from '../../../platform/commands';
import { assert } from '../../../kernel';
import { ApiError, ValidationFailedError } from '../../../platform/http';
import { ClientSelection, fullNameOf, UserReader } from '../../identity';
import { type RecipientAtSend, recipientsAtSend } from '../domain/broadcast';
import { broadcastEvolution, recordHandOff, sendBroadcast } from '../domain/broadcast.decider';
import { notificationChannels } from '../infrastructure/notification-preferences.store';
import { NotificationPreferencesService } from './notification-preferences';

/** A broadcast's stream: a handful of events, folded. */
const BROADCAST_STREAMS = foldedStreamKind(broadcastEvolution, (id) => broadcastStreamId(String(id)));

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
         count(*) FILTER (WHERE r.status = 'HANDED' AND (m.id IS NULL OR (m.sent_at IS NOT NULL AND NOT m.skipped)))::text AS sent,
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
    private readonly pipeline: CommandPipeline,
    private readonly preferences: NotificationPreferencesService,
  ) {}

  async preview(filter: ClientFilterRequest): Promise<BroadcastPreview> {
    refuseReversedRange(filter, 'registrationDate');
    const { userUuids } = await this.clients.select(filter);
    const optedOut = await this.optedOutAmong(this.dataSource.manager, userUuids);
    return { recipients: userUuids.length, unsubscribed: optedOut.size };
  }

  /**
   * Freezes the recipients the filter matches now and queues them; the sweep hands them to the outbox. Its
   * `BroadcastSent` commits with the rows, so the activity log says who sent what to how many.
   */
  async create(request: CreateBroadcastRequest, context: RequestContext): Promise<BroadcastDetail> {
    assert(context.actor, 'a broadcast is sent by a signed-in admin');
    const actorId = context.actor.userUuid;
    refuseReversedRange(request.filter, 'filter.registrationDate');
    const { userUuids } = await this.clients.select(request.filter);
    const id = randomUUID();
    let recipients: RecipientAtSend[] = [];
    await this.pipeline.run({
      context,
      streams: { broadcast: BROADCAST_STREAMS.ref(id) },
      prepare: async (tx) => {
        recipients = recipientsAtSend(userUuids, await this.optedOutAmong(tx.manager, userUuids));
      },
      decide: (loaded, { at }) => ({
        events: {
          broadcast: sendBroadcast(
            {
              broadcastId: id,
              subjectHe: request.subjectHe,
              subjectEn: request.subjectEn,
              filter: { ...request.filter },
              recipients,
              actorId: actorId,
              at,
            },
            loaded.broadcast.state,
          ),
        },
        result: null,
      }),
      alongside: async (tx, _decision, { at }) => {
        await tx.manager.query(
          `INSERT INTO broadcasts (id, subject_he, body_he, subject_en, body_en, filter, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, request.subjectHe, request.bodyHe, request.subjectEn, request.bodyEn, request.filter, actorId, at],
        );
        await tx.manager.query(
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
      },
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
      no_mail: boolean;
    }> = await this.dataSource.query(
      `SELECT r.user_uuid, r.status, m.sent_at, m.skipped, m.last_error, m.id IS NULL AS no_mail
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

  /**
   * Records `BroadcastHandedOff` for each broadcast whose last queued recipient was handed on and that has not
   * recorded it yet (`handed_off_at`, set with the event). Run after each hand-off, so a pass that crashed between
   * its hand-off and this record leaves the broadcast for the next pass to find. Answers how many it recorded.
   */
  async recordFinishedHandOffs(): Promise<number> {
    const finished: Array<{ id: string }> = await this.dataSource.query(
      `SELECT b.id FROM broadcasts b
        WHERE b.handed_off_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'QUEUED')
        ORDER BY b.created_at, b.id`,
    );
    for (const { id } of finished) {
      let counts = { handed: 0, skipped: 0 };
      await this.pipeline.run({
        context: systemContext(id),
        streams: { broadcast: BROADCAST_STREAMS.ref(id) },
        prepare: async (tx) => {
          const [row]: Array<{ handed: number; skipped: number }> = await tx.manager.query(
            `SELECT count(*) FILTER (WHERE status = 'HANDED')::int AS handed,
                    count(*) FILTER (WHERE status = 'SKIPPED_UNSUBSCRIBED')::int AS skipped
               FROM broadcast_recipients WHERE broadcast_id = $1`,
            [id],
          );
          counts = row;
        },
        decide: (loaded, { at }) => ({
          events: {
            broadcast: recordHandOff(
              { broadcastId: id, handedCount: counts.handed, skippedCount: counts.skipped, at },
              loaded.broadcast.state,
            ),
          },
          result: null,
        }),
        alongside: async (tx, _decision, { at }) => {
          await tx.manager.query('UPDATE broadcasts SET handed_off_at = $2 WHERE id = $1', [id, at]);
        },
      });
    }
    return finished.length;
  }

  /** Announcements are on while they go on e-mail or in the portal (ADR 0102: the `announcements` preference). */
  async announcementsOn(userUuid: string): Promise<boolean> {
    const optedOut = await this.optedOutAmong(this.dataSource.manager, [userUuid]);
    return !optedOut.has(userUuid);
  }

  /**
   * The former switch, now the `announcements` preference (ADR 0102): off is off on every channel, as the unsubscribe
   * link always meant; on is the kind's defaults. Doing it twice changes nothing.
   */
  async setAnnouncements(userUuid: string, on: boolean, context: RequestContext): Promise<void> {
    const announcements = on ? [...NOTIFICATION_KIND_RULES.announcements.defaults] : [];
    await this.preferences.change(userUuid, context, (current) => ({
      ...current,
      channels: { ...current.channels, announcements },
    }));
  }

  /** The clients an announcement reaches on no channel at all: shown and counted as unsubscribed. */
  async optedOutAmong(manager: EntityManager, userUuids: readonly string[]): Promise<Set<string>> {
    const channelsOf = await notificationChannels(manager, userUuids);
    return new Set(userUuids.filter((userUuid) => channelsOf(userUuid, 'announcements').length === 0));
  }
}

/**
 * Registered from a day after the day it ends matches nobody by construction: a mistake in the form, told as one
 * (400) rather than answered with an empty audience.
 */
function refuseReversedRange(filter: ClientFilterRequest, field: string): void {
  const { from, to } = filter.registrationDate ?? {};
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    throw new ValidationFailedError([{ field, error: 'error.validation.range.reversed' }]);
  }
}

function recipientStatus(recipient: {
  status: string;
  sent_at: Date | null;
  skipped: boolean | null;
  last_error: string | null;
  no_mail: boolean;
}): BroadcastRecipientStatus {
  if (recipient.status === 'QUEUED') return 'QUEUED';
  // Handed with e-mail switched off: the portal notice was the delivery (ADR 0102).
  if (recipient.status === 'HANDED' && recipient.no_mail) return 'SENT';
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
