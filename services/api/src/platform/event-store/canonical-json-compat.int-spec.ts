import { canonicalJson } from '@kupa/proto';
import { createHash } from 'node:crypto';
import { adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { manualPayment, transfer } from '../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { chainHash, type HashedEventFields } from './event-hash';

/**
 * The serialiser that made every stored hash before proto's canonical JSON replaced it, kept verbatim as the
 * reference this spec compares against. It must never be used for hashing again.
 */
function storedHashSerialiser(value: unknown): string {
  const hasToJson = (input: unknown): input is { toJSON(): unknown } =>
    typeof input === 'object' && input !== null && typeof (input as { toJSON?: unknown }).toJSON === 'function';
  const serialise = (input: unknown): string | undefined => {
    const item = hasToJson(input) ? input.toJSON() : input;
    if (item === null) return 'null';
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return JSON.stringify(item);
      case 'number':
        return Number.isFinite(item) ? JSON.stringify(item) : 'null';
      case 'bigint':
        throw new TypeError('BigInt');
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
      default:
        break;
    }
    if (Array.isArray(item)) return `[${item.map((element) => serialise(element) ?? 'null').join(',')}]`;
    const record = item as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = serialise(record[key]);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  };
  const text = serialise(value);
  if (text === undefined) throw new TypeError('no canonical form');
  return text;
}

/** The serialiser that made the stored `Idempotency-Key` request hashes, kept verbatim for the same reason. */
function storedRequestHashSerialiser(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(storedRequestHashSerialiser).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${storedRequestHashSerialiser(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface StoredEvent extends HashedEventFields {
  hash: string;
}

describe('canonical JSON against the stored hashes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
    // A sample of what the store really holds: identity and ledger events with Hebrew, quotes, emoji and
    // two-decimal amounts, written through the HTTP API.
    const admin = await adminToken(testApp);
    const dana = await createActiveUser(testApp, { firstName: 'דנה', lastName: "O'Neil-Ben David" });
    const omer = await createActiveUser(testApp, { role: 'AMBASSADOR', firstName: 'Omer', lastName: 'כֹּהֵן' });
    await createActiveUser(testApp, { role: 'MANAGER' });
    await manualPayment(testApp, admin, dana.userUuid, 1234.56, 'הפקדה "ידנית" \\ line\nbreak €');
    const cent = await manualPayment(testApp, admin, omer.userUuid, 0.01, 'cent');
    await manualPayment(testApp, admin, dana.userUuid, 10, 'withdrawal', 'WITHDRAW');
    await transfer(testApp, dana.accessToken, omer.email, 20.5);
    const statusChange = await testApp.http
      .put(`/api/payments/${cent.paymentId}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'REFUNDED' });
    expect(statusChange.status).toBe(200);
    const note = await testApp.http
      .post(`/api/users/${dana.userUuid}/notes`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ text: 'שימו לב: {placeholder} <b>not html</b>' });
    expect(note.status).toBe(201);
    const keyed = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${omer.accessToken}`)
      .set('Idempotency-Key', 'compat-key-1')
      .send({ recipient: dana.email, amount: 1.25 });
    expect(keyed.status).toBe(201);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('Given real stored events, when serialised, then proto writes the very bytes the stored hashes were made of', async () => {
    const events: StoredEvent[] = await testApp.dataSource.query(
      `SELECT stream_id AS "streamId", stream_version AS "streamVersion", type, data, metadata, hash
         FROM events ORDER BY stream_id, stream_version`,
    );
    const types = new Set(events.map((event) => event.type));
    for (const type of ['UserRegistered', 'UserCreatedByStaff', 'UserRoleChanged', 'ManualDepositRecorded']) {
      expect(types).toContain(type);
    }
    for (const type of ['TransferSent', 'TransferReceived', 'PaymentStatusChanged', 'UserNoteAdded']) {
      expect(types).toContain(type);
    }

    let previous: { streamId: string; hash: string } | null = null;
    for (const event of events) {
      const fields = {
        streamId: event.streamId,
        streamVersion: Number(event.streamVersion),
        type: event.type,
        data: event.data,
        metadata: event.metadata,
      };
      expect(canonicalJson(fields)).toBe(storedHashSerialiser(fields));
      const predecessor = previous?.streamId === event.streamId ? previous.hash : null;
      expect(chainHash(predecessor, fields)).toBe(event.hash);
      previous = { streamId: event.streamId, hash: event.hash };
    }
    expect(events.length).toBeGreaterThan(20);
  });

  it('Given a stored Idempotency-Key, when its request is hashed again, then the hash is the stored one', async () => {
    const rows: Array<{ request_hash: string }> = await testApp.dataSource.query(
      `SELECT request_hash FROM idempotency_keys WHERE key = 'compat-key-1'`,
    );
    expect(rows).toHaveLength(1);
    const dana = await testApp.dataSource.query(`SELECT email FROM users WHERE first_name = 'דנה'`);
    const request = {
      route: 'POST /payments/transfer',
      body: { recipient: dana[0].email as string, amountMinor: 125 },
    };
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(canonicalJson(request)).toBe(storedRequestHashSerialiser(request));
    expect(sha256(canonicalJson(request))).toBe(rows[0].request_hash);
  });
});
