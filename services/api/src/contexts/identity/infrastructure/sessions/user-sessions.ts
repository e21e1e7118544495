import { Inject, Injectable } from '@nestjs/common';
import { checkUuid, type Language, signInPlace, type StaffSessionEndCode, type UserSessionView } from '@kupa/proto';
import Bowser from 'bowser';
import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { linkSignature, sameText } from '../../../../platform/crypto';
import { enqueueMails, MAIL_PRIORITY, type MailKind, type StoredMail } from '../../../../platform/mail';
import { escapeHtml, type RenderedMail } from '../../../../platform/mail/templates';
import { isNewDevice } from '../../domain/sessions.decider';
import { countryOfAddress } from './session-country';

/**
 * Where each session (refresh family) signed in from, for the sessions list and the new-device notice
 * (docs/adr/0099-sessions-list-end-and-new-device-notice.md). One row per family, written at sign-in; the family's
 * tokens stay the truth of whether it is alive. `end_code`: the catalogue code a staff member's end tells the client.
 */
export class UserSessionsTable1769000009900 implements MigrationInterface {
  name = 'UserSessionsTable1769000009900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE user_sessions (
        family_id uuid PRIMARY KEY,
        user_uuid uuid NOT NULL,
        device_hash text,
        browser text,
        os text,
        device_type text NOT NULL DEFAULT 'other',
        ip_address text,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        end_code text
      )`);
    await runner.query(`CREATE INDEX user_sessions_user ON user_sessions (user_uuid, device_hash)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE user_sessions`);
  }
}

/**
 * The country the session signed in from, looked up once at sign-in (docs/adr/0101-the-country-of-a-session.md), so
 * the place shown is the sign-in's and no list recomputes it. Null for an IPv6, private or unknown address, and for
 * the sessions from before this column.
 */
export class UserSessionsCountry1769000010100 implements MigrationInterface {
  name = 'UserSessionsCountry1769000010100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE user_sessions ADD COLUMN country_code text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE user_sessions DROP COLUMN country_code`);
  }
}

/** The long-lived cookie that names a browser, so that a sign-in from one never seen for a user can be told. */
export const DEVICE_COOKIE = 'kupa_device';
const DEVICE_COOKIE_PATH = '/api/auth';
/** Browsers keep a cookie at most 400 days (RFC 6265bis); asking more is the same. */
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;
const USER_AGENT_MAX_LENGTH = 512;

/** The device a request names by its cookie, or null (none yet, or not one we made). */
export function deviceIdOf(request: Pick<Request, 'cookies'>): string | null {
  const value: unknown = request.cookies?.[DEVICE_COOKIE];
  return typeof value === 'string' && DEVICE_ID.test(value) ? value : null;
}

export function newDeviceId(): string {
  return randomBytes(32).toString('base64url');
}

export function setDeviceCookie(response: Response, deviceId: string, publicUrl: string): void {
  const options: CookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    path: DEVICE_COOKIE_PATH,
    secure: publicUrl.startsWith('https://'),
    maxAge: DEVICE_COOKIE_MAX_AGE_MS,
  };
  response.cookie(DEVICE_COOKIE, deviceId, options);
}

/** Browser, system and kind of device, as far as the user agent tells (bowser, MIT). */
export interface DeviceDescription {
  browser: string | null;
  os: string | null;
  deviceType: UserSessionView['deviceType'];
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  if (!userAgent) return { browser: null, os: null, deviceType: 'other' };
  const parsed = Bowser.parse(userAgent.slice(0, USER_AGENT_MAX_LENGTH));
  const major = (version: string | undefined) => version?.split('.')[0];
  const named = (name: string | undefined, version: string | undefined) =>
    name ? [name, major(version)].filter(Boolean).join(' ') : null;
  const type = parsed.platform.type;
  return {
    browser: named(parsed.browser.name, parsed.browser.version),
    os: named(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    deviceType: type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other',
  };
}

/** "Chrome 131 on Windows 10": how a mail or a notification names a device. */
export function deviceLabel(device: Pick<DeviceDescription, 'browser' | 'os'>, language: Language): string {
  const unknown = language === 'he' ? 'דפדפן לא מזוהה' : 'An unknown browser';
  if (!device.browser && !device.os) return unknown;
  if (!device.os) return device.browser ?? unknown;
  if (!device.browser) return device.os;
  return language === 'he' ? `${device.browser} ב-${device.os}` : `${device.browser} on ${device.os}`;
}

/** An IPv4 address as a dual-stack socket reports it (`::ffff:203.0.113.7`) reads as itself. */
export function plainAddress(address: string | null): string | null {
  return address?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') ?? null;
}

function hashDevice(deviceId: string): string {
  return createHash('sha256').update(deviceId).digest('base64url');
}

/** What a sign-in knows of where it comes from. */
export interface SignInOrigin {
  deviceId: string;
  userAgent: string | null;
  ipAddress: string | null;
}

export const NEW_DEVICE_MAIL_KIND = 'identity.new-device';

interface NewDeviceMailPayload {
  userUuid: string;
  firstName: string;
  sessionId: string;
  browser: string | null;
  os: string | null;
  ipAddress: string | null;
  /** Absent in the mails queued before ADR 0101. */
  countryCode?: string | null;
  signedInAt: string;
}

/**
 * The notification the portal lists for a new device; the notifications context writes it (`useNotificationWriter`),
 * since identity may not depend on it. Same shape as its `NotificationDraft`.
 */
export interface NewDeviceNotification {
  occasionKey: string;
  userUuid: string;
  kind: 'new-device';
  params: { sessionId: string; device: string; ipAddress: string | null; countryCode: string | null; link: string };
}
type NotificationWriter = (manager: EntityManager, drafts: NewDeviceNotification[], now: Date) => Promise<unknown>;
/**
 * The new-device notice for the user's Telegram chat (ADR 0104), which the notifications context records in its
 * Telegram outbox. Same shape as its `TelegramNotice`.
 */
export interface NewDeviceTelegramNotice {
  dedupeKey: string;
  userUuid: string;
  kind: 'new-device';
  params: { device: string; ipAddress: string | null; countryCode: string | null; link: string };
  language: Language;
}
type TelegramWriter = (manager: EntityManager, notices: NewDeviceTelegramNotice[], now: Date) => Promise<unknown>;
/** The channels the user keeps the new-device notice on (the notifications context's preferences, ADR 0102). */
type NewDeviceChannels = (manager: EntityManager, userUuid: string) => Promise<readonly string[]>;

interface SessionRow {
  family_id: string;
  browser: string | null;
  os: string | null;
  device_type: UserSessionView['deviceType'] | null;
  ip_address: string | null;
  country_code: string | null;
  started_at: Date;
  last_used_at: Date;
}

/** What the end link is signed for; changing it voids every link already mailed. */
const END_LINK_PURPOSE = 'session-end-link';

/**
 * The sessions a user sees and ends, and the new-device notice. A session is alive while its family has a current
 * token (not revoked, not replaced, not expired, of the user's session version); it was last used when that token was
 * made, i.e. at the last refresh (ADR 0099: the access tokens between refreshes write nothing).
 */
@Injectable()
export class UserSessions {
  private notificationWriter: NotificationWriter | null = null;
  private telegramWriter: TelegramWriter | null = null;
  private newDeviceChannels: NewDeviceChannels = () => Promise.resolve(['email', 'portal']);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The notifications context hands its writer over at start (it depends on identity, not the other way). */
  useNotificationWriter(writer: NotificationWriter, channels?: NewDeviceChannels, telegram?: TelegramWriter): void {
    this.notificationWriter = writer;
    if (channels) this.newDeviceChannels = channels;
    if (telegram) this.telegramWriter = telegram;
  }

  /**
   * Records where a new session signed in from. A device is new for a user who has signed in before, but never from
   * a browser carrying this device cookie: then the notice goes out, by mail and in the portal's list, in the same
   * transaction. A user's very first sign-in tells nothing (there is no other device to compare with).
   */
  async recordSignIn(
    user: { uuid: string; firstName: string; email: string; language: Language },
    familyId: string,
    origin: SignInOrigin,
    now: Date,
  ): Promise<{ newDevice: boolean }> {
    const device = describeUserAgent(origin.userAgent);
    const ipAddress = plainAddress(origin.ipAddress);
    const countryCode = countryOfAddress(ipAddress);
    const deviceHash = hashDevice(origin.deviceId);
    return this.dataSource.transaction(async (manager) => {
      const seen: Array<{ known: boolean; any: boolean }> = await manager.query(
        `SELECT bool_or(device_hash = $2) AS known, count(*) > 0 AS any FROM user_sessions WHERE user_uuid = $1`,
        [user.uuid, deviceHash],
      );
      const newDevice = isNewDevice({
        signedInBefore: seen[0]?.any === true,
        deviceSeenBefore: seen[0]?.known === true,
      });
      await manager.query(
        `INSERT INTO user_sessions
           (family_id, user_uuid, device_hash, browser, os, device_type, ip_address, country_code, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [familyId, user.uuid, deviceHash, device.browser, device.os, device.deviceType, ipAddress, countryCode, now],
      );
      if (!newDevice) return { newDevice };
      const payload: NewDeviceMailPayload = {
        userUuid: user.uuid,
        firstName: user.firstName,
        sessionId: familyId,
        browser: device.browser,
        os: device.os,
        ipAddress,
        countryCode,
        signedInAt: now.toISOString(),
      };
      // A security notice: the preferences keep it on e-mail or in the portal at least (ADR 0102).
      const channels = await this.newDeviceChannels(manager, user.uuid);
      if (channels.includes('email'))
        await enqueueMails(
          manager,
          [
            {
              dedupeKey: `new-device:${familyId}`,
              kind: NEW_DEVICE_MAIL_KIND,
              recipient: user.email,
              language: user.language,
              payload: { ...payload },
              // Someone else may hold the account: the owner must hear at once, not after a broadcast.
              priority: MAIL_PRIORITY.urgent,
            },
          ],
          now,
        );
      // A path of the portal, as every notification's link: its page asks before ending the session.
      const endLink = `/end-session?token=${encodeURIComponent(this.endLinkToken(familyId))}`;
      if (channels.includes('portal'))
        await this.notificationWriter?.(
          manager,
          [
            {
              occasionKey: `new-device:${familyId}`,
              userUuid: user.uuid,
              kind: 'new-device',
              params: {
                sessionId: familyId,
                device: deviceLabel(device, user.language),
                ipAddress,
                countryCode,
                link: endLink,
              },
            },
          ],
          now,
        );
      if (channels.includes('telegram'))
        await this.telegramWriter?.(
          manager,
          [
            {
              dedupeKey: `new-device:${familyId}`,
              userUuid: user.uuid,
              kind: 'new-device',
              params: { device: deviceLabel(device, user.language), ipAddress, countryCode, link: endLink },
              language: user.language,
            },
          ],
          now,
        );
      return { newDevice };
    });
  }

  /** The user's live sessions, the latest used first; `currentId` is marked as the caller's own. */
  async list(userUuid: string, currentId: string | null, now: Date): Promise<UserSessionView[]> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT t.family_id, s.browser, s.os, s.device_type, s.ip_address, s.country_code,
              t.family_started_at AS started_at, t.created_at AS last_used_at
       FROM refresh_tokens t
         LEFT JOIN user_sessions s ON s.family_id = t.family_id
         LEFT JOIN credentials c ON c.user_uuid = t.user_uuid
       WHERE t.user_uuid = $1 AND t.revoked_at IS NULL AND t.replaced_at IS NULL AND t.expires_at > $2
         AND t.session_version = coalesce(c.session_version, 0)
       ORDER BY t.created_at DESC, t.family_id`,
      [userUuid, now],
    );
    return rows.map((row) => ({
      id: row.family_id,
      browser: row.browser,
      os: row.os,
      deviceType: row.device_type ?? 'other',
      ipAddress: row.ip_address,
      countryCode: row.country_code,
      startedAt: row.started_at.toISOString(),
      lastUsedAt: row.last_used_at.toISOString(),
      current: row.family_id === currentId,
    }));
  }

  /** Marks sessions ended by staff with the code their owner is told at the next request. */
  async markEndedByStaff(
    manager: EntityManager,
    userUuid: string,
    familyIds: readonly string[],
    code: StaffSessionEndCode,
    now: Date,
  ): Promise<void> {
    if (familyIds.length === 0) return;
    // A session from before this table has no row yet: it gets one, with nothing known of its device.
    await manager.query(
      `INSERT INTO user_sessions (family_id, user_uuid, started_at, ended_at, end_code)
       SELECT f, $1, $3, $3, $4 FROM unnest($2::uuid[]) AS f
       ON CONFLICT (family_id) DO UPDATE SET ended_at = $3, end_code = $4`,
      [userUuid, familyIds, now, code],
    );
  }

  /** The one-time link of the new-device notice: the session's id signed, so it works without signing in. */
  endLinkToken(familyId: string): string {
    return `${familyId}.${linkSignature(this.config.jwtSecret, END_LINK_PURPOSE, familyId)}`;
  }

  endLinkUrl(familyId: string): string {
    return `${this.config.publicUrl}/end-session?token=${encodeURIComponent(this.endLinkToken(familyId))}`;
  }

  /** The session a link names, or null when this installation did not sign it. */
  sessionOfEndLink(token: string): string | null {
    const [familyId, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !familyId || !signature || checkUuid(familyId) !== null) return null;
    return sameText(signature, linkSignature(this.config.jwtSecret, END_LINK_PURPOSE, familyId)) ? familyId : null;
  }

  /** The mail that tells of a sign-in from a new device, in the user's language, with the end link. */
  mailKind(): MailKind {
    return {
      name: NEW_DEVICE_MAIL_KIND,
      render: (mail: StoredMail): Promise<RenderedMail> =>
        Promise.resolve(
          newDeviceMail(
            mail.language === 'en' ? 'en' : 'he',
            mail.payload as unknown as NewDeviceMailPayload,
            this.endLinkUrl((mail.payload as unknown as NewDeviceMailPayload).sessionId),
          ),
        ),
    };
  }
}

function newDeviceMail(language: Language, payload: NewDeviceMailPayload, link: string): RenderedMail {
  const device = deviceLabel(payload, language);
  const place = signInPlace(payload, language);
  const at = new Date(payload.signedInAt).toLocaleString(language === 'he' ? 'he-IL' : 'en-GB', {
    timeZone: 'UTC',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const words =
    language === 'he'
      ? {
          subject: 'כניסה לחשבון שלך בקופה ממכשיר חדש',
          greeting: `שלום ${payload.firstName},`,
          body: `נכנסו לחשבון שלך ממכשיר שלא ראינו קודם: ${device}, מ${place}, ב-${at} (UTC).`,
          ifYou: 'אם זה היית את/ה, אין צורך לעשות דבר.',
          ifNot: 'אם זה לא את/ה, נתקו את ההתחברות הזו והחליפו את הסיסמה:',
          linkLabel: 'ניתוק ההתחברות הזו',
        }
      : {
          subject: 'A new device signed in to your Kupa account',
          greeting: `Hello ${payload.firstName},`,
          body: `Your account was signed in to from a device we have not seen before: ${device}, from ${place}, on ${at} (UTC).`,
          ifYou: 'If this was you, there is nothing to do.',
          ifNot: 'If it was not you, end that session and change your password:',
          linkLabel: 'End this session',
        };
  const direction = language === 'he' ? 'rtl' : 'ltr';
  const text = [words.greeting, '', words.body, '', words.ifYou, words.ifNot, link].join('\n');
  const html = [
    `<!doctype html><html lang="${language}" dir="${direction}"><body style="font-family: Arial, sans-serif">`,
    `<p>${escapeHtml(words.greeting)}</p>`,
    `<p>${escapeHtml(words.body)}</p>`,
    `<p>${escapeHtml(words.ifYou)}<br>${escapeHtml(words.ifNot)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(words.linkLabel)}</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: words.subject, text, html };
}
