import { type AuditLog, auditSentence, type BroadcastDetail, type ClientNotification, type Page } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import type { ReceivedMail } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { BROADCAST_DELIVERY_SWEEP } from '../../processors/broadcast-delivery.sweep';

describe('broadcasts (ADR 0091)', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-06-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let eli: ActiveUser;
  let noa: ActiveUser;
  let other: ActiveUser;

  const content = {
    subjectHe: 'שעות פעילות חדשות',
    bodyHe: 'שלום לכולם,\nהשירות יהיה סגור ביום שישי.',
    subjectEn: 'New opening hours',
    bodyEn: 'Hello all,\nThe service is closed on Friday.',
  };
  const filter = { keyWord: 'broadcastee' };
  // The schedule also runs by itself in the background; either way, the rate counts what was handed.
  const handOff = () => testApp.app.get(Schedules).sweepNow(BROADCAST_DELIVERY_SWEEP);
  const detail = async (id: string): Promise<BroadcastDetail> =>
    (await testApp.http.get(`/api/broadcasts/${id}`).set('Authorization', `Bearer ${admin}`)).body as BroadcastDetail;
  const statusOf = (broadcast: BroadcastDetail, user: ActiveUser) =>
    broadcast.recipientList.find((recipient) => recipient.userUuid === user.userUuid)?.status;
  const mailsTo = (user: ActiveUser, subject: string) =>
    testApp.mailbox.messages.filter((mail) => mail.to.includes(user.email) && mail.subject === subject);
  const tokenOf = (mail: ReceivedMail) => {
    const link = /https?:\/\/\S+\/unsubscribe\?token=(\S+)/.exec(mail.text);
    if (!link) throw new Error('no unsubscribe link');
    return decodeURIComponent(link[1]);
  };
  const notificationsOf = async (user: ActiveUser): Promise<ClientNotification[]> =>
    (await testApp.http.post('/api/notifications/search').set('Authorization', `Bearer ${user.accessToken}`).send({}))
      .body.content;

  beforeAll(async () => {
    testApp = await startTestApp({ clock, env: { BROADCAST_MAILS_PER_MINUTE: '2' } });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER', lastName: 'Broadcastee' });
    dana = await createActiveUser(testApp, { email: 'dana.b@example.com', lastName: 'Broadcastee', language: 'he' });
    eli = await createActiveUser(testApp, { email: 'eli.b@example.com', lastName: 'Broadcastee', language: 'en' });
    noa = await createActiveUser(testApp, { email: 'noa.b@example.com', lastName: 'Broadcastee', language: 'en' });
    other = await createActiveUser(testApp, { email: 'other.b@example.com', lastName: 'Elsewhere' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('lets only admins preview and send, and refuses bad input with catalogue codes', async () => {
    for (const token of [manager.accessToken, dana.accessToken]) {
      const preview = await testApp.http
        .post('/api/broadcasts/preview')
        .set('Authorization', `Bearer ${token}`)
        .send(filter);
      expect(preview.status).toBe(403);
      const send = await testApp.http
        .post('/api/broadcasts')
        .set('Authorization', `Bearer ${token}`)
        .send({ ...content, filter });
      expect(send.status).toBe(403);
      expect((await testApp.http.get('/api/broadcasts').set('Authorization', `Bearer ${token}`)).status).toBe(403);
    }
    const blank = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, subjectEn: '   ', filter });
    expect(blank.status).toBe(400);
    expect(blank.body.details.fields).toContainEqual({ field: 'subjectEn', error: 'error.validation.blank' });
    const staffRole = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, filter: { roles: ['MANAGER'] } });
    expect(staffRole.status).toBe(400);
    const nobody = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, filter: { keyWord: 'no-such-client-anywhere' } });
    expect(nobody.status).toBe(409);
    expect(nobody.body.error).toBe('error.broadcast.no.recipients');
    const unknown = await testApp.http
      .get('/api/broadcasts/00000000-0000-4000-8000-000000000000')
      .set('Authorization', `Bearer ${admin}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('error.broadcast.not.found');
  });

  it('sends to the filter once per recipient, in their language, at the rate, skipping who opted out', async () => {
    // Noa switches announcements off in her profile before the broadcast.
    const off = await testApp.http
      .put('/api/notifications/preferences')
      .set('Authorization', `Bearer ${noa.accessToken}`)
      .send({ announcements: false });
    expect(off.body).toEqual({ announcements: false });

    const preview = await testApp.http
      .post('/api/broadcasts/preview')
      .set('Authorization', `Bearer ${admin}`)
      .send(filter);
    expect(preview.body).toEqual({ recipients: 3, unsubscribed: 1 });

    const sent = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, filter });
    expect(sent.status).toBe(201);
    const broadcast = sent.body as BroadcastDetail;
    expect(broadcast).toMatchObject({ status: 'SENDING', recipients: 3, queued: 2, skipped: 1 });
    expect(statusOf(broadcast, noa)).toBe('SKIPPED_UNSUBSCRIBED');
    expect(statusOf(broadcast, other)).toBeUndefined();

    // A client who joins after the send is not a recipient: the list was frozen.
    await createActiveUser(testApp, { email: 'late.b@example.com', lastName: 'Broadcastee' });

    await handOff();
    const danaMail = await testApp.mailbox.waitFor(dana.email, (mail) => mail.subject === content.subjectHe);
    const eliMail = await testApp.mailbox.waitFor(eli.email, (mail) => mail.subject === content.subjectEn);
    expect(danaMail.text).toContain('השירות יהיה סגור ביום שישי.');
    expect(eliMail.text).toContain('The service is closed on Friday.');
    expect(eliMail.headers['list-unsubscribe']).toMatch(/^<https?:\/\/\S+\/api\/announcements\/unsubscribe\?token=/);
    expect(eliMail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const [notice] = await notificationsOf(eli);
    expect(notice).toMatchObject({
      kind: 'announcement',
      params: { subject: content.subjectEn, body: content.bodyEn, broadcastId: broadcast.id },
    });
    expect((await notificationsOf(noa)).some((notification) => notification.kind === 'announcement')).toBe(false);

    const done = await detail(broadcast.id);
    expect(done).toMatchObject({ status: 'DONE', queued: 0, skipped: 1 });
    expect(statusOf(done, noa)).toBe('SKIPPED_UNSUBSCRIBED');
    expect(mailsTo(noa, content.subjectEn)).toHaveLength(0);

    const list = await testApp.http.get('/api/broadcasts').set('Authorization', `Bearer ${admin}`);
    expect(list.body[0]).toMatchObject({ id: broadcast.id, recipients: 3 });

    // The activity log says who sent what to how many, and when every recipient was handed on; no row per recipient.
    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [broadcast.id] });
    expect(log.status).toBe(200);
    const entries = (log.body as Page<AuditLog>).content;
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(entries.map((entry) => entry.eventType).sort()).toEqual(['BroadcastHandedOff', 'BroadcastSent']);
    const sentEntry = entries.find((entry) => entry.eventType === 'BroadcastSent') as AuditLog;
    expect(sentEntry.target).toMatchObject({ type: 'BROADCAST', id: broadcast.id, name: content.subjectHe });
    expect(plain(auditSentence(sentEntry, 'en'))).toMatch(
      new RegExp(`^Broadcast ${content.subjectHe}: sent by .+ to 3 clients, 1 of whom had switched announcements off$`),
    );
    const handedEntry = entries.find((entry) => entry.eventType === 'BroadcastHandedOff') as AuditLog;
    expect(handedEntry.createdBy.name).toBe('SYSTEM');
    expect(plain(auditSentence(handedEntry, 'he'))).toContain('כל הנמענים הועברו לתור הדואר (2 הודעות)');
    // Another pass finds it recorded: the hand-off is told once.
    await handOff();
    const again = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [broadcast.id] });
    expect((again.body as Page<AuditLog>).totalElements).toBe(2);
  });

  it('narrows the audience by registration date, and refuses a reversed or malformed range', async () => {
    const registeredSince = (from: string | null, to: string | null) =>
      testApp.http
        .post('/api/broadcasts/preview')
        .set('Authorization', `Bearer ${admin}`)
        .send({ ...filter, registrationDate: { from, to } });
    const everyone = await registeredSince('2000-01-01T00:00:00.000Z', null);
    expect(everyone.status).toBe(200);
    const future = await registeredSince('2100-01-01T00:00:00.000Z', null);
    expect(future.body).toEqual({ recipients: 0, unsubscribed: 0 });
    expect((await registeredSince(null, '2000-01-01T00:00:00.000Z')).body).toEqual({ recipients: 0, unsubscribed: 0 });
    expect((await registeredSince(null, '2100-01-01T00:00:00.000Z')).body).toEqual(everyone.body);

    const reversed = await registeredSince('2026-06-02T00:00:00.000Z', '2026-06-01T00:00:00.000Z');
    expect(reversed.status).toBe(400);
    expect(reversed.body.details.fields).toContainEqual({
      field: 'registrationDate',
      error: 'error.validation.range.reversed',
    });
    const reversedSend = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        ...content,
        filter: { ...filter, registrationDate: { from: '2026-06-02T00:00:00Z', to: '2026-06-01T00:00:00Z' } },
      });
    expect(reversedSend.status).toBe(400);
    expect(reversedSend.body.details.fields).toContainEqual({
      field: 'filter.registrationDate',
      error: 'error.validation.range.reversed',
    });
    for (const nonsense of [{ from: 'yesterday' }, { to: 42 }, 'last week']) {
      const refused = await testApp.http
        .post('/api/broadcasts/preview')
        .set('Authorization', `Bearer ${admin}`)
        .send({ ...filter, registrationDate: nonsense });
      expect(refused.status).toBe(400);
    }
  });

  it('holds the rate: a minute’s allowance spent, the rest waits for the next minute', async () => {
    clock.advanceMs(61_000);
    const more = { ...content, subjectEn: 'Second note', subjectHe: 'הודעה שנייה' };
    const sent = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...more, filter: { keyWord: 'broadcastee' } });
    // Dana, Eli and the late joiner (Noa opted out).
    expect(sent.body).toMatchObject({ recipients: 4, queued: 3, skipped: 1 });
    await handOff();
    await handOff();
    expect((await detail(sent.body.id)).queued).toBe(1);
    clock.advanceMs(61_000);
    await handOff();
    expect((await detail(sent.body.id)).queued).toBe(0);
  });

  it('tells each recipient once when a hand-off is repeated after a crash or runs twice at once', async () => {
    clock.advanceMs(61_000);
    const once = { ...content, subjectEn: 'Only once', subjectHe: 'רק פעם אחת' };
    const sent = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...once, filter: { keyWord: 'broadcastee', roles: ['CLIENT'] } });
    const id = sent.body.id as string;
    // Two processes at once: between them no more than the rate, and nobody twice.
    await Promise.all([handOff(), handOff()]);
    expect((await detail(id)).queued).toBe(1);
    // A crash after the outbox took the mails but before the rows said so (as if that commit were lost).
    await testApp.dataSource.query(
      `UPDATE broadcast_recipients SET status = 'QUEUED', handed_at = NULL WHERE broadcast_id = $1 AND status = 'HANDED'`,
      [id],
    );
    clock.advanceMs(61_000);
    await handOff();
    clock.advanceMs(61_000);
    await handOff();
    await testApp.mailbox.waitFor(eli.email, (mail) => mail.subject === 'Only once');
    const [{ mails }]: Array<{ mails: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS mails FROM mail_outbox WHERE dedupe_key LIKE $1`,
      [`broadcast:${id}:%`],
    );
    const [{ notices }]: Array<{ notices: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS notices FROM client_notifications WHERE occasion_key LIKE $1`,
      [`broadcast:${id}:%`],
    );
    const recipients = (await detail(id)).recipientList.filter((r) => r.status !== 'SKIPPED_UNSUBSCRIBED').length;
    expect(mails).toBe(recipients);
    expect(notices).toBe(recipients);
    expect(mailsTo(eli, 'Only once')).toHaveLength(1);
  });

  it('unsubscribes by the mail’s link without sign-in, refuses a forged token, and keeps service mails going', async () => {
    const mail = await testApp.mailbox.waitFor(eli.email, (received) => received.subject === content.subjectEn);
    const token = tokenOf(mail);
    const [uuid, signature] = token.split('.');
    const forged = [`${dana.userUuid}.${signature}`, `${uuid}.${signature.slice(0, -1)}x`, uuid, 'garbage'];
    for (const bad of forged) {
      const refused = await testApp.http.post(`/api/announcements/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('error.unsubscribe.link.invalid');
    }
    const check = await testApp.http
      .get('/api/notifications/preferences')
      .set('Authorization', `Bearer ${eli.accessToken}`);
    expect(check.body).toEqual({ announcements: true });

    // The mail client's one-click POST (RFC 8058), a form, no sign-in.
    const oneClick = await testApp.rawHttp
      .post(`/api/announcements/unsubscribe?token=${encodeURIComponent(token)}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(204);
    const again = await testApp.http.post(`/api/announcements/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(again.status).toBe(204);
    const after = await testApp.http
      .get('/api/notifications/preferences')
      .set('Authorization', `Bearer ${eli.accessToken}`);
    expect(after.body).toEqual({ announcements: false });

    clock.advanceMs(61_000);
    const skipped = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, subjectEn: 'After unsubscribing', filter: { keyWord: 'eli.b@' } });
    expect(skipped.body).toMatchObject({ recipients: 1, queued: 0, skipped: 1, status: 'DONE' });

    // A service mail is not an announcement: the reset link still comes, and it offers no way to unsubscribe.
    const reset = await testApp.http.post('/api/password/forgot').send({ email: eli.email });
    expect(reset.status).toBe(204);
    const resetMail = await testApp.mailbox.waitFor(
      eli.email,
      (received) => received.subject !== content.subjectEn && /password|סיסמה/i.test(received.subject + received.text),
    );
    expect(resetMail.headers['list-unsubscribe']).toBeUndefined();
    expect(resetMail.headers['list-unsubscribe-post']).toBeUndefined();
    expect(resetMail.text).not.toMatch(/unsubscribe/i);

    // Switched back on in the profile.
    const on = await testApp.http
      .put('/api/notifications/preferences')
      .set('Authorization', `Bearer ${eli.accessToken}`)
      .send({ announcements: true });
    expect(on.body).toEqual({ announcements: true });
    const bad = await testApp.http
      .put('/api/notifications/preferences')
      .set('Authorization', `Bearer ${eli.accessToken}`)
      .send({ announcements: 'no' });
    expect(bad.status).toBe(400);
    expect(
      (
        await testApp.http
          .put('/api/notifications/preferences')
          .set('Authorization', `Bearer ${admin}`)
          .send({ announcements: false })
      ).status,
    ).toBe(403);
  });

  it('keeps notification preferences: defaults, changes, refusals with codes, staff reading, one announcements setting', async () => {
    const maya = await createActiveUser(testApp, {
      email: 'maya.p@example.com',
      lastName: 'Preferrer',
      language: 'en',
    });
    const tal = await createActiveUser(testApp, { email: 'tal.p@example.com', lastName: 'Preferrer', language: 'en' });
    const mine = (user: ActiveUser) =>
      testApp.http.get('/api/users/me/notification-preferences').set('Authorization', `Bearer ${user.accessToken}`);
    const change = (user: ActiveUser, body: object) =>
      testApp.http
        .put('/api/users/me/notification-preferences')
        .set('Authorization', `Bearer ${user.accessToken}`)
        .send(body);

    const defaults = await mine(maya);
    expect(defaults.status).toBe(200);
    expect(defaults.headers['cache-control']).toBe('no-store');
    expect(defaults.body).toEqual({
      channels: {
        'renewal-reminders': ['email', 'telegram', 'portal'],
        'renewal-results': ['email', 'telegram'],
        payments: ['email', 'telegram', 'portal'],
        'subscription-status': ['email', 'telegram', 'portal'],
        announcements: ['email', 'portal'],
        'new-device': ['email', 'telegram', 'portal'],
        'low-balance': ['email', 'telegram', 'portal'],
        transfers: ['email', 'telegram', 'portal'],
      },
      leadDays: null,
      lowBalanceThresholdMinor: null,
      quietHours: null,
    });

    const quietHours = { from: '22:00', to: '07:00', timeZone: 'Asia/Jerusalem' };
    const changed = await change(maya, {
      channels: { announcements: ['portal'] },
      leadDays: 5,
      lowBalanceThresholdMinor: 500,
      quietHours,
    });
    expect(changed.status).toBe(200);
    expect((await mine(maya)).body).toMatchObject({
      channels: { announcements: ['portal'], payments: ['email', 'telegram', 'portal'] },
      leadDays: 5,
      lowBalanceThresholdMinor: 500,
      quietHours,
    });

    for (const [body, code] of [
      [{ channels: { 'renewal-results': ['portal'] } }, 'error.notification.preferences.channel.not.offered'],
      [{ channels: { 'new-device': ['telegram'] } }, 'error.notification.preferences.security.required'],
      [{ channels: { gossip: ['email'] } }, 'error.validation.failed'],
      [{ channels: { payments: 'email' } }, 'error.validation.failed'],
      [{ leadDays: 61 }, 'error.notification.preferences.lead.days.range'],
      [{ leadDays: 'soon' }, 'error.notification.preferences.lead.days.range'],
      [{ lowBalanceThresholdMinor: 0 }, 'error.notification.preferences.threshold.range'],
      [{ quietHours: { ...quietHours, to: '22:00' } }, 'error.notification.preferences.quiet.hours.invalid'],
      [{ quietHours: { ...quietHours, timeZone: 'Mars/Olympus' } }, 'error.notification.preferences.time.zone.invalid'],
      [{ colour: 'blue' }, null],
    ] as const) {
      const refused = await change(maya, body);
      expect(refused.status).toBe(400);
      if (code) expect(JSON.stringify(refused.body)).toContain(code);
    }
    expect((await mine(maya)).body).toMatchObject({ leadDays: 5, channels: { announcements: ['portal'] } });

    // Staff read a client's, read only; a staff account's is not found; clients cannot read another's.
    const read = await testApp.http
      .get(`/api/users/${maya.userUuid}/notification-preferences`)
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ leadDays: 5 });
    const staffAccount = await testApp.http
      .get(`/api/users/${manager.userUuid}/notification-preferences`)
      .set('Authorization', `Bearer ${admin}`);
    expect(staffAccount.status).toBe(404);
    const foreign = await testApp.http
      .get(`/api/users/${maya.userUuid}/notification-preferences`)
      .set('Authorization', `Bearer ${tal.accessToken}`);
    expect(foreign.status).toBe(403);

    // The old switch is the same setting: Tal switches announcements off there, and the new route says so.
    await testApp.http
      .put('/api/notifications/preferences')
      .set('Authorization', `Bearer ${tal.accessToken}`)
      .send({ announcements: false })
      .expect(200);
    expect((await mine(tal)).body.channels.announcements).toEqual([]);

    // Maya keeps announcements in the portal only: a notice and no mail, and she counts as reached. Tal is skipped.
    clock.set(new Date(clock.now().getTime() + 10 * 60_000));
    const sent = await testApp.http
      .post('/api/broadcasts')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...content, subjectEn: 'Portal only', filter: { keyWord: 'Preferrer' } });
    expect(sent.body).toMatchObject({ recipients: 2, queued: 1, skipped: 1 });
    await handOff();
    const broadcast = await detail((sent.body as BroadcastDetail).id);
    expect(statusOf(broadcast, maya)).toBe('SENT');
    expect(statusOf(broadcast, tal)).toBe('SKIPPED_UNSUBSCRIBED');
    expect((await notificationsOf(maya)).map((notice) => notice.params.subject)).toEqual(['Portal only']);
    expect(await notificationsOf(tal)).toEqual([]);
    const mailRows: unknown[] = await testApp.dataSource.query(
      `SELECT 1 FROM mail_outbox WHERE recipient = ANY($1) AND kind = 'notifications.broadcast'`,
      [[maya.email, tal.email]],
    );
    expect(mailRows).toEqual([]);
  });
});
