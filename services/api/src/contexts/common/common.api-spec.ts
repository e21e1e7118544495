import {
  AUDIT_OPERATION_TYPES,
  AUDIT_TARGET_TYPES,
  type Dictionaries,
  ENUM_LABELS,
  type EnumName,
  LIMITS,
  USER_ROLES,
} from '@kupa/proto';
import { startTestApp, type TestApp } from '../../test-support/test-app';

describe('common context over HTTP', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SUPPORT_TELEGRAM: '@kupa_help', SUPPORT_EMAIL: 'help@kupa.test' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('tells anyone the app version', async () => {
    const response = await testApp.http.get('/api/common/app/version');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ name: 'kupa', version: '0.0.0-test', commit: process.env.KUPA_COMMIT ?? null });
  });

  it('serves every enum with its Hebrew and English labels, and the limits, without signing in', async () => {
    const response = await testApp.http.get('/api/dictionaries');
    expect(response.status).toBe(200);
    const dictionaries = response.body as Dictionaries;
    expect(Object.keys(dictionaries.enums).sort()).toEqual(Object.keys(ENUM_LABELS).sort());
    for (const [name, entries] of Object.entries(dictionaries.enums)) {
      const labels = ENUM_LABELS[name as EnumName] as Record<string, { he: string; en: string }>;
      expect(entries.map((entry) => String(entry.value)).sort()).toEqual(Object.keys(labels).sort());
      for (const entry of entries) {
        // A label equal to the raw value would mean the lookup fell back: every value must have real labels.
        expect(entry).toEqual({ value: entry.value, ...labels[String(entry.value)] });
        expect(entry.he.length).toBeGreaterThan(0);
        expect(entry.en.length).toBeGreaterThan(0);
      }
    }
    expect(dictionaries.enums.auditTargetType.map((entry) => entry.value)).toEqual([...AUDIT_TARGET_TYPES]);
    expect(dictionaries.enums.auditOperationType.map((entry) => entry.value)).toEqual([...AUDIT_OPERATION_TYPES]);
    expect(dictionaries.enums.userRole.map((entry) => entry.value)).toEqual([...USER_ROLES]);
    expect(dictionaries.enums.auditTargetType.find((entry) => entry.value === 'PACKAGE')).toEqual({
      value: 'PACKAGE',
      he: 'חבילה',
      en: 'Package',
    });
    expect(dictionaries.limits).toEqual({ ...LIMITS });
    expect(dictionaries.support).toEqual({ telegram: 'https://t.me/kupa_help', email: 'help@kupa.test' });
    // No STREAMING_SITE_URL here: the portal then links no service site.
    expect(dictionaries.streamingSiteUrl).toBeNull();
  });

  it('publishes an OpenAPI document that lists the activity-log routes as staff-only bearer calls', async () => {
    const response = await testApp.http.get('/api/docs/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/audit-logs/search',
        '/api/audit-logs/{id}',
        '/api/common/app/version',
        '/api/dictionaries',
      ]),
    );
    const search = document.paths['/api/audit-logs/search'].post;
    const get = document.paths['/api/audit-logs/{id}'].get;
    for (const operation of [search, get]) {
      expect(operation.tags).toEqual(['audit-logs']);
      expect(operation.security).toEqual([{ bearer: [] }]);
    }
    expect(JSON.stringify(search)).toContain('SearchAuditLogsRequestDto');
  });
});
