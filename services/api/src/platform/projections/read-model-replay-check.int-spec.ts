import type { DataSource } from 'typeorm';
import type { InlineProjection } from '../event-store/event-store.port';
import { metadata, streamOf, useEventStore } from '../event-store/event-store.fixtures';
import { REPLAY_CHECK_ROWS_NAMED, ReadModelReplayCheck } from './read-model-replay-check';
import { InlineProjectionRegistry } from './inline-projection.registry';

/**
 * The replay check on a read model of its own: `replay_notes` holds one row per `NoteWritten` event (a nullable
 * column and a jsonb one, so the comparison meets NULLs and documents), with a unique index the replay must keep and
 * a search index it may drop.
 */
describe('ReadModelReplayCheck', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let check: ReadModelReplayCheck;
  const streamId = streamOf('note');
  const NOTES = 30;

  const notesProjection: InlineProjection = {
    name: 'replay-notes',
    handles: ['NoteWritten'],
    replayChecked: [{ table: 'replay_notes', key: ['id'] }],
    async apply(events, manager) {
      const notes = events.map((event) => event.data as { id: number; text: string | null; tags: string[] });
      await manager.query(
        `INSERT INTO replay_notes (id, text, tags) SELECT * FROM unnest($1::int[], $2::text[], $3::jsonb[])`,
        [notes.map((note) => note.id), notes.map((note) => note.text), notes.map((note) => JSON.stringify(note.tags))],
      );
    },
    async reset(manager) {
      await manager.query('DELETE FROM replay_notes');
    },
  };

  beforeAll(async () => {
    dataSource = env.dataSource;
    await dataSource.query(
      'CREATE TABLE replay_notes (id int PRIMARY KEY, text text, tags jsonb NOT NULL, slug text GENERATED ALWAYS AS (lower(text)) STORED)',
    );
    await dataSource.query('CREATE UNIQUE INDEX replay_notes_slug_unique ON replay_notes (slug)');
    await dataSource.query('CREATE INDEX replay_notes_text ON replay_notes (text)');
    const registry = new InlineProjectionRegistry(dataSource, env.eventTypes);
    registry.register(notesProjection);
    // Every note but the first has text; the first has none, which must compare equal to its replay.
    const events = Array.from({ length: NOTES }, (_, index) => ({
      type: 'NoteWritten',
      data: { id: index + 1, text: index === 0 ? null : `Note ${index + 1}`, tags: [`t${index % 3}`] },
    }));
    await env.store.append([{ streamId, expectedVersion: 0, events }], metadata);
    await registry.rebuild('replay-notes');
    check = new ReadModelReplayCheck(dataSource, registry);
  });

  it('finds no difference when the read model equals its replay, NULLs and documents included', async () => {
    const report = await check.run();
    expect(report.mismatches).toEqual([]);
    expect(report.tables).toEqual([
      { table: 'replay_notes', rows: NOTES, missing: 0, extra: 0, compareMs: expect.any(Number) },
    ]);
    expect(report.eventsReplayed).toBeGreaterThanOrEqual(NOTES);
  });

  it('names a changed row on both sides, a deleted row as missing and a row no event made as extra', async () => {
    const [deleted]: Array<{ id: number; text: string; tags: unknown }> = await dataSource.query(
      'SELECT id, text, tags FROM replay_notes WHERE id = 5',
    );
    await dataSource.query('DELETE FROM replay_notes WHERE id = 5');
    await dataSource.query(`UPDATE replay_notes SET tags = '["edited"]' WHERE id = 7`);
    await dataSource.query(`UPDATE replay_notes SET text = 'Set' WHERE id = 1`);
    await dataSource.query(`INSERT INTO replay_notes (id, text, tags) VALUES (1000, 'Forged', '[]')`);
    try {
      const report = await check.run();
      expect(report.tables).toEqual([
        { table: 'replay_notes', rows: NOTES, missing: 3, extra: 3, compareMs: expect.any(Number) },
      ]);
      expect(report.mismatches).toEqual([
        { table: 'replay_notes', side: 'missing', key: 'id=1' },
        { table: 'replay_notes', side: 'missing', key: 'id=5' },
        { table: 'replay_notes', side: 'missing', key: 'id=7' },
        { table: 'replay_notes', side: 'extra', key: 'id=1' },
        { table: 'replay_notes', side: 'extra', key: 'id=7' },
        { table: 'replay_notes', side: 'extra', key: 'id=1000' },
      ]);
    } finally {
      await dataSource.query('DELETE FROM replay_notes WHERE id = 1000');
      await dataSource.query(`UPDATE replay_notes SET text = NULL WHERE id = 1`);
      await dataSource.query(`UPDATE replay_notes SET tags = '["t0"]' WHERE id = 7`);
      await dataSource.query('INSERT INTO replay_notes (id, text, tags) VALUES ($1, $2, $3)', [
        deleted.id,
        deleted.text,
        JSON.stringify(deleted.tags),
      ]);
    }
    expect((await check.run()).mismatches).toEqual([]);
  });

  it(`counts every differing row and names the first ${REPLAY_CHECK_ROWS_NAMED} of each side`, async () => {
    await dataSource.query(`UPDATE replay_notes SET tags = tags || '["bulk"]'`);
    try {
      const report = await check.run();
      expect(report.tables[0]).toMatchObject({ missing: NOTES, extra: NOTES });
      const sides = report.mismatches.map((mismatch) => mismatch.side);
      expect(sides.filter((side) => side === 'missing')).toHaveLength(REPLAY_CHECK_ROWS_NAMED);
      expect(sides.filter((side) => side === 'extra')).toHaveLength(REPLAY_CHECK_ROWS_NAMED);
      expect(report.mismatches[0].key).toBe('id=1');
    } finally {
      await dataSource.query(`UPDATE replay_notes SET tags = tags - 'bulk'`);
    }
  });

  it('replays into copies that keep the unique indexes, and leaves the live table and its indexes alone', async () => {
    // Two notes with one slug: the live table refuses them; the replay into the copy must refuse them too.
    await env.store.append(
      [
        {
          streamId: streamOf('note'),
          expectedVersion: 0,
          events: [{ type: 'NoteWritten', data: { id: 2000, text: 'Note 2', tags: [] } }],
        },
      ],
      { ...metadata },
    );
    // The copy names its indexes anew, after the columns they cover.
    await expect(check.run()).rejects.toThrow(/duplicate key value violates unique constraint "replay_notes_slug/);
    const indexes: Array<{ name: string }> = await dataSource.query(
      `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'replay_notes' AND schemaname = current_schema()
        ORDER BY indexname`,
    );
    expect(indexes.map((index) => index.name)).toEqual([
      'replay_notes_pkey',
      'replay_notes_slug_unique',
      'replay_notes_text',
    ]);
  });
});

/**
 * The comparison counts whole rows as multisets, so a table without a primary key may hold a row twice, and names a
 * differing row by every column of its key. `replay_tags` holds one row per `TagAdded` (a note may carry a tag
 * twice), keyed by note; `replay_tag_counts` counts each note's tags under the key `(note_id, tag)`.
 */
describe('ReadModelReplayCheck on repeated rows and a key of two columns', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let check: ReadModelReplayCheck;

  const tagsProjection: InlineProjection = {
    name: 'replay-tags',
    handles: ['TagAdded'],
    replayChecked: [
      { table: 'replay_tags', key: ['note_id'] },
      { table: 'replay_tag_counts', key: ['note_id', 'tag'] },
    ],
    async apply(events, manager) {
      for (const event of events) {
        const { noteId, tag } = event.data as { noteId: number; tag: string };
        await manager.query('INSERT INTO replay_tags (note_id, tag) VALUES ($1, $2)', [noteId, tag]);
        await manager.query(
          `INSERT INTO replay_tag_counts (note_id, tag, count) VALUES ($1, $2, 1)
           ON CONFLICT (note_id, tag) DO UPDATE SET count = replay_tag_counts.count + 1`,
          [noteId, tag],
        );
      }
    },
    async reset(manager) {
      await manager.query('DELETE FROM replay_tags');
      await manager.query('DELETE FROM replay_tag_counts');
    },
  };

  beforeAll(async () => {
    dataSource = env.dataSource;
    await dataSource.query('CREATE TABLE replay_tags (note_id int NOT NULL, tag text NOT NULL)');
    await dataSource.query(
      'CREATE TABLE replay_tag_counts (note_id int NOT NULL, tag text NOT NULL, count int NOT NULL, PRIMARY KEY (note_id, tag))',
    );
    const registry = new InlineProjectionRegistry(dataSource, env.eventTypes);
    registry.register(tagsProjection);
    // Note 1 carries "red" twice, so its two rows in replay_tags are equal.
    const tags: Array<[number, string]> = [
      [1, 'red'],
      [1, 'red'],
      [1, 'blue'],
      [2, 'red'],
    ];
    await env.store.append(
      [
        {
          streamId: streamOf('tags'),
          expectedVersion: 0,
          events: tags.map(([noteId, tag]) => ({ type: 'TagAdded', data: { noteId, tag } })),
        },
      ],
      metadata,
    );
    await registry.rebuild('replay-tags');
    check = new ReadModelReplayCheck(dataSource, registry);
  });

  it('finds no difference when both tables equal their replay, repeated rows included', async () => {
    const report = await check.run();
    expect(report.mismatches).toEqual([]);
    expect(report.tables.map(({ table, rows, missing, extra }) => ({ table, rows, missing, extra }))).toEqual([
      { table: 'replay_tags', rows: 4, missing: 0, extra: 0 },
      { table: 'replay_tag_counts', rows: 3, missing: 0, extra: 0 },
    ]);
  });

  it('counts a repeated row by how often each side holds it', async () => {
    await dataSource.query(
      `DELETE FROM replay_tags WHERE ctid = (SELECT min(ctid) FROM replay_tags WHERE tag = 'red' AND note_id = 1)`,
    );
    await dataSource.query(`INSERT INTO replay_tags (note_id, tag) VALUES (2, 'red')`);
    try {
      const report = await check.run();
      expect(report.tables[0]).toMatchObject({ table: 'replay_tags', missing: 1, extra: 1 });
      expect(report.mismatches).toEqual([
        { table: 'replay_tags', side: 'missing', key: 'note_id=1' },
        { table: 'replay_tags', side: 'extra', key: 'note_id=2' },
      ]);
    } finally {
      await dataSource.query(
        `DELETE FROM replay_tags WHERE ctid = (SELECT min(ctid) FROM replay_tags WHERE note_id = 2)`,
      );
      await dataSource.query(`INSERT INTO replay_tags (note_id, tag) VALUES (1, 'red')`);
    }
    expect((await check.run()).mismatches).toEqual([]);
  });

  it('names each differing row by every column of a key of two columns', async () => {
    await dataSource.query(`UPDATE replay_tag_counts SET count = 5 WHERE note_id = 1 AND tag = 'blue'`);
    await dataSource.query(`UPDATE replay_tag_counts SET tag = 'green' WHERE note_id = 2 AND tag = 'red'`);
    try {
      const report = await check.run();
      expect(report.tables[1]).toMatchObject({ table: 'replay_tag_counts', missing: 2, extra: 2 });
      expect(report.mismatches).toEqual([
        { table: 'replay_tag_counts', side: 'missing', key: 'note_id=1,tag=blue' },
        { table: 'replay_tag_counts', side: 'missing', key: 'note_id=2,tag=red' },
        { table: 'replay_tag_counts', side: 'extra', key: 'note_id=1,tag=blue' },
        { table: 'replay_tag_counts', side: 'extra', key: 'note_id=2,tag=green' },
      ]);
    } finally {
      await dataSource.query(`UPDATE replay_tag_counts SET count = 1 WHERE note_id = 1 AND tag = 'blue'`);
      await dataSource.query(`UPDATE replay_tag_counts SET tag = 'red' WHERE note_id = 2 AND tag = 'green'`);
    }
    expect((await check.run()).mismatches).toEqual([]);
  });
});
