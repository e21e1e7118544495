import { metadata, streamOf, useEventStore } from '../event-store/event-store.fixtures';
import { START_CHECKPOINT } from '../event-store/event-store.port';
import { EventTypeRegistry } from '../event-store/event-type-registry';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { KAFKA_HEADERS, toKafkaMessage, type KafkaMessage } from './published-event';
import { compactJsonText, readRepublishStep } from './republish-reader';

/** A message as it goes on the wire: key, value and headers in order (kafkajs encodes headers in key order). */
function wire(message: KafkaMessage): string {
  return JSON.stringify([message.key, message.value, Object.entries(message.headers)]);
}

/**
 * The republish's messages are the live publisher's, byte for byte (docs/adr/0131): the reader puts most of them
 * together from PostgreSQL's text of each event, and this compares them with `toKafkaMessage` of the same events
 * as the event store decodes them (the live publisher's path), over data and metadata chosen to trip it up.
 */
describe('readRepublishStep on PostgreSQL: the live publisher’s messages, byte for byte', () => {
  const env = useEventStore();
  const replay = { [KAFKA_HEADERS.replay]: 'replay.' };

  it('makes each event’s message as toKafkaMessage does, upcast ones and odd stored forms included', async () => {
    // Events of `Renamed` stored at schema version 1, before the type moved to version 2 with an upcaster.
    const olderTypes = new EventTypeRegistry();
    olderTypes.register('Renamed');
    const olderStore = new PostgresEventStore(
      env.dataSource,
      new InlineProjectionRegistry(env.dataSource, olderTypes),
      olderTypes,
    );
    const renamed = streamOf('wallet');
    await olderStore.append(
      [{ streamId: renamed, expectedVersion: 0, events: [{ type: 'Renamed', data: { name: 'old', n: 1 } }] }],
      metadata,
    );
    env.eventTypes.register('Renamed', {
      schemaVersion: 2,
      upcasters: { 1: (data) => ({ ...(data as object), fullName: 'upcast' }) },
    });
    await env.store.append(
      [
        {
          streamId: renamed,
          expectedVersion: 1,
          events: [{ type: 'Renamed', data: { name: 'new', n: 2, fullName: 'x' } }],
        },
      ],
      metadata,
    );

    const datas: unknown[] = [
      { paymentId: 'p-1', amountMinor: 12_345, currency: 'USD', note: 'x'.repeat(120) },
      { nested: { list: [1, -2, 3.5, 0, -0.25, true, false, null, [], {}], empty: '' }, z: { a: { b: { c: [] } } } },
      { text: 'quote " backslash \\ slash / tab \t newline \n control \u0001 \u001f del \u007f', emoji: '😀 é ü €' },
      { spaced: 'a, b: c', 'key with: colon, and comma': '{"not": "json"}', '\\"': '"\\' },
      { big: 12_345_678_901_234_567_000, tiny: 1.5e-7, huge: 1e21, third: 1 / 3, max: Number.MAX_SAFE_INTEGER },
      { 10: 'ten', a: 'a', 2: 'two', '1x': 'not an index', '-1': 'minus one' },
      [1, 'two', { three: 3 }],
      'a string',
      42,
      null,
      { line: '\u2028\u2029', zero: 0, negative: -12, fraction: 0.1 + 0.2 },
    ];
    const plain = streamOf('payment');
    await env.store.append(
      [
        {
          streamId: plain,
          expectedVersion: 0,
          events: datas.map((data, index) => ({ type: `Type${index % 3}`, data })),
        },
      ],
      { ...metadata, causationId: 'cause "quoted"', actor: { ...metadata.actor, role: 'STAFF\u00e9' } },
    );
    // Stored forms JavaScript never writes, as an older writer or a hand-made row might have left them.
    const odd = streamOf('user');
    await env.store.append(
      [{ streamId: odd, expectedVersion: 0, events: Array.from({ length: 8 }, () => ({ type: 'Odd', data: {} })) }],
      metadata,
    );
    const oddRows: [string, string][] = [
      ['{"a": 1.50, "b": 1e2, "c": 0.00000015}', '{"correlationId": "c", "actor": {"id": "u", "role": "r"}}'],
      ['{"n": 123456789012345678901234567890}', '{"correlationId": "c\\"q", "occurredAt": 5, "actor": {"id": 1.0}}'],
      ['{"k": 1}', '{"correlationId": "c", "causationId": null, "actor": "not an object", "schemaVersion": 1}'],
      ['{"k": 2}', '{"correlationId": "c", "actor": {"role": "r", "extra": {"x": 1.10}}, "schemaVersion": "1"}'],
      ['{"k": 3}', '{"correlationId": "c", "actor": {}, "occurredAt": {"at": [1, 2.50]}}'],
      ['{"9": 1, "10": 2, "x": 3}', '{"correlationId": "c", "actor": {"id": "u"}}'],
      ['{"k": 4}', '{"correlationId": "c", "actor": {"id": "u"}, "causationId": {"a": 1}, "ip": "1.2.3.4"}'],
      ['{"k": 5}', '{"correlationId": "c", "actor": {"id": "u"}, "schemaVersion": 1.0}'],
    ];
    for (const [index, [data, stored]] of oddRows.entries())
      await env.dataSource.query(
        'UPDATE events SET data = $1::jsonb, metadata = $2::jsonb WHERE stream_id = $3 AND stream_version = $4',
        [data, stored, odd, index + 1],
      );

    const events = await env.store.readAll(START_CHECKPOINT, 1_000);
    expect(events).toHaveLength(2 + datas.length + oddRows.length);
    const step = await readRepublishStep(
      env.dataSource,
      env.eventTypes,
      { after: START_CHECKPOINT.commitPosition, end: events[events.length - 1].commitPosition, limit: 1_000 },
      replay,
    );
    expect(step?.last).toBe(events[events.length - 1].commitPosition);
    expect(step?.messages.map(wire)).toEqual(events.map((event) => wire(toKafkaMessage(event, replay))));
    // Most were put together from the texts (the comparison above is then of both paths): all but the event to
    // upcast, the two datas with numbers or keys JavaScript writes otherwise, and five of the eight odd rows.
    expect(step?.madeFromTexts).toBe(events.length - 1 - 2 - 5);
    // The upcast one went out upcast, at the type's current version.
    expect(JSON.parse(step?.messages[0].value ?? '{}')).toMatchObject({
      schemaVersion: 2,
      data: { fullName: 'upcast' },
    });

    // A window: after a commit, up to an end, whole commits of fewer than `limit` events before each
    // (docs/adr/0128): a commit larger than the limit comes alone and whole, and the end cuts between commits.
    const commits = [...new Set(events.map((event) => event.commitPosition))];
    expect(commits.length).toBeGreaterThanOrEqual(3);
    const ofCommit = (position: string) => events.filter((event) => event.commitPosition === position);
    const window = await readRepublishStep(
      env.dataSource,
      env.eventTypes,
      { after: commits[commits.length - 3], end: commits[commits.length - 1], limit: 3 },
      replay,
    );
    expect(ofCommit(commits[commits.length - 2]).length).toBeGreaterThan(3);
    expect(window?.messages.map(wire)).toEqual(
      ofCommit(commits[commits.length - 2]).map((event) => wire(toKafkaMessage(event, replay))),
    );
    expect(window?.last).toBe(commits[commits.length - 2]);
    const cut = await readRepublishStep(
      env.dataSource,
      env.eventTypes,
      { after: commits[commits.length - 3], end: commits[commits.length - 2], limit: 1_000 },
      replay,
    );
    expect(cut?.messages).toHaveLength(ofCommit(commits[commits.length - 2]).length);
    const end = commits[commits.length - 1];
    expect(await readRepublishStep(env.dataSource, env.eventTypes, { after: end, end, limit: 10 }, replay)).toBeNull();
  });
});

describe('compactJsonText', () => {
  it('takes out the spaces of jsonb’s output where JSON.parse and JSON.stringify would give the same text', () => {
    for (const text of [
      '{"a": 1, "b": [1, 2, {"c": "d, e: f"}], "g": null, "h": true}',
      '"text with \\" quote and \\\\ backslash"',
      '[]',
      '{"": -12.5, "x": "9: not a key"}',
    ])
      expect(compactJsonText(text)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('gives up where they could differ: such numbers, keys that start with a digit', () => {
    for (const text of ['{"a": 1.50}', '{"a": 1e2}', '{"a": 123456789012345678901}', '{"10": 1}', '{"a": -0}'])
      expect(compactJsonText(text)).toBeNull();
  });
});
