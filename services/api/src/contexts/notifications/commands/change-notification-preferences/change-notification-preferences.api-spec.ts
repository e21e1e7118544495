import { type AuditLog, auditSentence, type Page } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('PUT /users/me/notification-preferences tells each change (ADR 0105)', () => {
  let testApp: TestApp;
  let admin: string;
  let maya: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    maya = await createActiveUser(testApp, { firstName: 'Maya', lastName: 'Levi' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const put = (body: object) =>
    testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${maya.accessToken}`)
      .send(body)
      .expect(200);
  const events = async () =>
    (await testApp.dataSource.query(`SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_version`, [
      `notification-preferences-${maya.userUuid}`,
    ])) as Array<{ type: string; data: Record<string, unknown> }>;
  const logLines = async (lang: 'he' | 'en') => {
    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [maya.userUuid] })
      .expect(200);
    return (log.body as Page<AuditLog>).content
      .filter((entry) => entry.eventType === 'NotificationPreferencesChanged')
      .map((entry) => auditSentence(entry, lang).replace(/[\u2066-\u2069]/g, ''));
  };

  it('appends NotificationPreferencesChanged with the row, names what changed, and the activity log tells it', async () => {
    await put({ channels: { announcements: ['portal'] }, lowBalanceThresholdMinor: 500 });
    const [changed] = await events();
    expect(changed).toMatchObject({
      type: 'NotificationPreferencesChanged',
      data: {
        userUuid: maya.userUuid,
        userRole: 'CLIENT',
        changed: ['lowBalanceThresholdMinor'],
        channels: [{ kind: 'announcements', channels: ['portal'] }],
        lowBalanceThresholdMinor: 500,
        previous: { lowBalanceThresholdMinor: null, channels: { announcements: ['email', 'portal'] } },
      },
    });

    // The same setting again changes nothing and tells nothing.
    await put({ channels: { announcements: ['portal'] }, lowBalanceThresholdMinor: 500 });
    expect(await events()).toHaveLength(1);

    await put({ channels: { announcements: ['portal'] }, lowBalanceThresholdMinor: 700, leadDays: 5 });
    expect(await events()).toHaveLength(2);

    const english = await logLines('en');
    expect(english).toHaveLength(2);
    // Newest first; once the log knows a value it says what it was.
    expect(english[0]).toMatch(/notification preferences changed: .*low-balance threshold \$5\.00 → \$7\.00/);
    expect(english[0]).toMatch(/reminder lead days \(empty\) → 5/);
    expect(english[1]).toMatch(/notification preferences changed: channels for announcements \(empty\) → portal/);
    const hebrew = await logLines('he');
    expect(hebrew[1]).toContain('העדפות ההתראות שונו');
    expect(hebrew[1]).toContain('פורטל');
  });

  it('tells the old announcements switch as a change of the same setting', async () => {
    const noa = await createActiveUser(testApp);
    await testApp.http
      .put('/api/notifications/preferences')
      .set('Authorization', `Bearer ${noa.accessToken}`)
      .send({ announcements: false })
      .expect(200);
    const rows: Array<{ data: { channels: unknown } }> = await testApp.dataSource.query(
      `SELECT data FROM events WHERE stream_id = $1`,
      [`notification-preferences-${noa.userUuid}`],
    );
    expect(rows.map((row) => row.data.channels)).toEqual([[{ kind: 'announcements', channels: [] }]]);
  });
});
