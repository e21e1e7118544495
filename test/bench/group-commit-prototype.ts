/**
 * The group-commit prototype of docs/adr/0130-group-commit.md, for the benches only: `group-commit.ts` installs it in
 * an application context of the built API inside its own process, and `group-commit-preload.ts` (bundled by
 * `group-commit.ts --preload`) installs it in a built server's processes, for `transfer-cpu.ts` to compare with another
 * checkout. It replaces `IdempotentCommands.prototype.run` of the build: a plan the predicate accepts (a balance
 * transfer's four streams) joins a per-process queue; anything else runs as before.
 *
 * It reaches into private members of the build (`IdempotentCommands.pipeline`, `.keys`; the pipeline's `store` and
 * `clock`; the store's `inTransaction`, `lockStreams`, `appendLocked`, `readStreamWith`, `projections`,
 * `eventTypes`; the keys' `storedAnswer`), which is why it is a bench and not code.
 */

/** How long a fixed-size batch waits for its k-th transfer before it goes with fewer (the end of a window). */
const FIXED_LINGER_MS = 20;

export type GroupMode = 'single' | 'tx' | 'merged';
export type GroupPolicy = 'adaptive' | 'fixed' | '-';

/** What a run sets and reads: the mode, how batches form, and what they were. */
export interface GroupSettings {
  mode: GroupMode;
  policy: GroupPolicy;
  /** The most transfers a batch holds. */
  k: number;
  /** Batches of one process in their transactions at once (ADR 0130 proposes 2; a new one forms when one commits). */
  maxInFlight: number;
  batchSizes: number[];
  /** Batches that failed as a whole and whose transfers ran again one by one. */
  fallbacks: number;
  /** Statements each batch sent after its `START TRANSACTION`, its `COMMIT` included, when counted. */
  statements?: number[];
}

/** The functions of the build the prototype calls, required from its `dist`. */
export interface BuildFunctions {
  eventMetadata(context: unknown, at: Date, causationId: string | null): { occurredAt: string };
  storedMetadata(metadata: unknown, schemaVersion: number): Record<string, unknown>;
  schemaVersionKey: string;
  compareStreamIds(left: string, right: string): number;
  chainHash(previous: string | null, fields: unknown): string;
  IdempotentReplay: new (response: unknown) => Error & { response: unknown };
}

interface Parts extends BuildFunctions {
  store: Store;
  keys: Keys;
  clock: { now(): Date };
}

/**
 * The four streams of a balance transfer's plan, and no side work of its own: the only plans the prototype groups
 * (the merged batch runs the idempotency key's claim and completion itself, and no other `prepare` or `alongside`).
 */
export function isTransferPlan(plan: {
  streams: Record<string, unknown>;
  prepare?: unknown;
  alongside?: unknown;
}): boolean {
  return (
    ['senderWallet', 'receiverWallet', 'outPayment', 'inPayment'].every((name) => name in plan.streams) &&
    Object.keys(plan.streams).length === 4 &&
    plan.prepare === undefined &&
    plan.alongside === undefined
  );
}

/** Installs the prototype in a build whose modules `dist` requires by their path under `dist/`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the build's modules, typed where they are used
export function installFromBuild(dist: (path: string) => Record<string, any>, settings: GroupSettings): void {
  const rows = dist('platform/event-store/event-rows.js');
  installGroupCommit(
    dist('platform/idempotency/idempotent-commands.js').IdempotentCommands.prototype,
    {
      eventMetadata: dist('platform/auth/index.js').eventMetadata,
      storedMetadata: rows.storedMetadata,
      schemaVersionKey: rows.SCHEMA_VERSION_KEY,
      compareStreamIds: rows.compareStreamIds,
      chainHash: dist('platform/event-store/event-hash.js').chainHash,
      IdempotentReplay: dist('platform/idempotency/idempotency-keys.js').IdempotentReplay,
    },
    settings,
  );
}

type Run = (idempotency: IdempotentRequest | null, plan: Plan) => Promise<unknown>;

/** Replaces `run` on the build's `IdempotentCommands` prototype; each instance gets its own queue. */
export function installGroupCommit(prototype: { run: Run }, functions: BuildFunctions, settings: GroupSettings): void {
  const original = prototype.run;
  const groups = new WeakMap<object, GroupCommit>();
  prototype.run = function (
    this: { pipeline: { store: Store; clock: { now(): Date } }; keys: Keys },
    idempotency,
    plan,
  ) {
    if (settings.mode === 'single' || !isTransferPlan(plan)) return original.call(this, idempotency, plan);
    let group = groups.get(this);
    if (!group) {
      const parts = { ...functions, store: this.pipeline.store, keys: this.keys, clock: this.pipeline.clock };
      group = new GroupCommit(parts, (request, alone) => original.call(this, request, alone), settings);
      groups.set(this, group);
    }
    return group.enqueue(idempotency, plan);
  } as Run;
}

/* The few shapes of the build this prototype touches, typed narrowly (as test-support/built-api.ts does). */
type Manager = { query(sql: string, parameters?: unknown[]): Promise<never[]> };
type QueryRunner = { query(sql: string, parameters?: unknown[]): Promise<never[]>; manager: Manager };
interface StreamHead {
  version: number;
  lastHash: string | null;
}
interface RecordedEventLike {
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata: unknown;
  [key: string]: unknown;
}
interface StreamAppend {
  streamId: string;
  expectedVersion: number | 'any';
  events: { type: string; data: unknown }[];
}
interface LoadedStream {
  streamId: string;
  state: unknown;
  version: number;
}
interface StreamRef {
  streamId: string;
  loader: { load(tx: unknown, ids: readonly string[]): Promise<Map<string, LoadedStream>> };
  readOnly?: true;
}
interface Plan {
  context: unknown;
  causationId?: string | null;
  streams: Record<string, StreamRef>;
  prepare?(tx: unknown, stamp: Stamp): Promise<void>;
  decide(loaded: Record<string, LoadedStream>, stamp: Stamp): { events: Record<string, unknown[]>; result: unknown };
  alongside?(tx: unknown, decision: unknown, stamp: Stamp): Promise<void>;
}
interface Stamp {
  at: Date;
  metadata: { occurredAt: string };
}
interface IdempotentRequest {
  actorUuid: string;
  key: string;
  requestHash: string;
}
interface Store {
  inTransaction<T>(work: (queryRunner: QueryRunner) => Promise<T>): Promise<T>;
  lockStreams(queryRunner: QueryRunner, streamIds: readonly string[]): Promise<Map<string, StreamHead>>;
  appendLocked(
    queryRunner: QueryRunner,
    appends: readonly StreamAppend[],
    metadata: unknown,
    heads: Map<string, StreamHead>,
  ): Promise<{ events: RecordedEventLike[] }>;
  readStreamWith(manager: Manager, streamId: string, fromVersion?: number): Promise<RecordedEventLike[]>;
  projections: { apply(events: readonly RecordedEventLike[], manager: Manager): Promise<void> };
  eventTypes: { schemaVersion(type: string): number };
}
interface Keys {
  claim(manager: Manager, request: IdempotentRequest | null, now: Date): Promise<void>;
  complete(manager: Manager, request: IdempotentRequest | null, response: unknown): Promise<void>;
  storedAnswer(manager: Manager, request: IdempotentRequest): Promise<unknown>;
}
interface Queued {
  idempotency: IdempotentRequest | null;
  plan: Plan;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * A per-process queue in front of `IdempotentCommands.run`, and the two ways of running a batch: `tx` (each transfer's
 * own statements behind a savepoint, one transaction) and `merged` (the batch's statements merged).
 */
class GroupCommit {
  private readonly queue: Queued[] = [];
  private inFlight = 0;
  /** Streams of the batches in their transactions: a transfer on one of them waits for the next batch. */
  private readonly busy = new Set<string>();
  private lingerTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly built: Parts,
    private readonly original: Run,
    private readonly settings: GroupSettings,
  ) {}

  enqueue(idempotency: IdempotentRequest | null, plan: Plan): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ idempotency, plan, resolve, reject });
      this.maybeFlush();
    });
  }

  private maybeFlush(): void {
    if (this.inFlight >= this.settings.maxInFlight || this.queue.length === 0) return;
    if (this.settings.policy === 'fixed' && this.queue.length < this.settings.k) {
      this.lingerTimer ??= setTimeout(() => {
        this.lingerTimer = null;
        this.flush();
      }, FIXED_LINGER_MS);
      return;
    }
    this.flush();
  }

  /**
   * Takes up to k queued transfers in arrival order, none writing a stream that an earlier one of the batch, or a
   * batch still in its transaction, writes.
   */
  private flush(): void {
    if (this.inFlight >= this.settings.maxInFlight || this.queue.length === 0) return;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    const batch: Queued[] = [];
    const taken = new Set<string>(this.busy);
    const held: Queued[] = [];
    for (const item of this.queue) {
      const ids = Object.values(item.plan.streams).map((ref) => ref.streamId);
      // A transfer whose stream is taken waits, and so does every later one on its streams (per-stream order).
      if (batch.length >= this.settings.k || ids.some((id) => taken.has(id))) {
        held.push(item);
        for (const id of ids) taken.add(id);
        continue;
      }
      for (const id of ids) taken.add(id);
      batch.push(item);
    }
    if (batch.length === 0) return;
    this.queue.splice(0, this.queue.length, ...held);
    const streams = batch.flatMap((item) => Object.values(item.plan.streams).map((ref) => ref.streamId));
    for (const id of streams) this.busy.add(id);
    this.inFlight += 1;
    this.settings.batchSizes.push(batch.length);
    const run = this.settings.mode === 'tx' ? this.runSavepoints(batch) : this.runMerged(batch);
    void run
      .catch(async () => {
        // A failure the batch could not place (a SQL error, not a refusal): each transfer runs again alone, as today.
        this.settings.fallbacks += 1;
        await Promise.all(
          batch.map((item) => this.original(item.idempotency, item.plan).then(item.resolve, item.reject)),
        );
      })
      .finally(() => {
        for (const id of streams) this.busy.delete(id);
        this.inFlight -= 1;
        this.maybeFlush();
      });
    // With room for another batch, what is still queued may form one at once.
    this.maybeFlush();
  }

  /** The batch's query runner, counting its statements when the settings keep a count (the projections' too). */
  private counting(queryRunner: QueryRunner): QueryRunner {
    const counts = this.settings.statements;
    if (!counts) return queryRunner;
    const index = counts.push(0) - 1;
    const query = queryRunner.query.bind(queryRunner);
    queryRunner.query = (sql, parameters) => {
      counts[index] += 1;
      return query(sql, parameters);
    };
    return queryRunner;
  }

  private streamTransaction(queryRunner: QueryRunner, heads: Map<string, StreamHead>, metadata: unknown) {
    const store = this.built.store;
    return {
      readStream: (streamId: string, options?: { fromVersion?: number }) =>
        store.readStreamWith(queryRunner.manager, streamId, options?.fromVersion),
      streamVersion: async (streamId: string) => heads.get(streamId)?.version ?? 0,
      manager: queryRunner.manager,
      metadata,
    };
  }

  private stampOf(plan: Plan): Stamp {
    const metadata = this.built.eventMetadata(plan.context, this.built.clock.now(), plan.causationId ?? null);
    return { at: new Date(metadata.occurredAt), metadata };
  }

  /** Each transfer's statements as today, behind its own savepoint; one lock statement and one commit for all. */
  private async runSavepoints(batch: Queued[]): Promise<void> {
    const { store, keys } = this.built;
    const outcomes = await store.inTransaction(async (counted) => {
      const queryRunner = this.counting(counted);
      const heads = await store.lockStreams(
        queryRunner,
        batch.flatMap((item) => Object.values(item.plan.streams).map((ref) => ref.streamId)),
      );
      const settled: { ok: boolean; value: unknown }[] = [];
      for (const [index, { idempotency, plan }] of batch.entries()) {
        await queryRunner.query(`SAVEPOINT transfer_${index}`);
        try {
          const stamp = this.stampOf(plan);
          const tx = this.streamTransaction(queryRunner, heads, stamp.metadata);
          await keys.claim(queryRunner.manager, idempotency, stamp.at);
          const loaded = await loadStreams(tx, plan.streams);
          const decision = plan.decide(loaded, stamp);
          await plan.alongside?.(tx, decision, stamp);
          await keys.complete(queryRunner.manager, idempotency, decision.result);
          await store.appendLocked(queryRunner, appendsOf(plan, loaded, decision), stamp.metadata, heads);
          settled.push({ ok: true, value: decision.result });
        } catch (error) {
          await queryRunner.query(`ROLLBACK TO SAVEPOINT transfer_${index}`);
          settled.push({ ok: false, value: error });
        }
      }
      return settled;
    });
    this.settle(batch, outcomes);
  }

  /** The batch's statements merged; refusals leave it before anything is written. */
  private async runMerged(batch: Queued[]): Promise<void> {
    const built = this.built;
    const { store, keys } = built;
    const outcomes = await store.inTransaction(async (counted) => {
      const queryRunner = this.counting(counted);
      const settled: { ok: boolean; value: unknown }[] = batch.map(() => ({ ok: false, value: null }));
      const heads = await store.lockStreams(
        queryRunner,
        batch.flatMap((item) => Object.values(item.plan.streams).map((ref) => ref.streamId)),
      );
      const stamps = batch.map((item) => this.stampOf(item.plan));
      // Every key claimed in one statement; a key already there is a repeat and answers its first response.
      const keyed = batch.flatMap((item, index) => (item.idempotency ? [{ ...item.idempotency, index }] : []));
      const live = new Set(batch.keys());
      if (keyed.length > 0) {
        const claimed: { actor_uuid: string; key: string }[] = await queryRunner.query(
          `INSERT INTO idempotency_keys (actor_uuid, key, request_hash, status_code, response, created_at)
           SELECT actor_uuid, key, request_hash, NULL, NULL, created_at
             FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) AS k(actor_uuid, key, request_hash, created_at)
           ON CONFLICT DO NOTHING RETURNING actor_uuid::text, key`,
          [
            keyed.map((entry) => entry.actorUuid),
            keyed.map((entry) => entry.key),
            keyed.map((entry) => entry.requestHash),
            keyed.map((entry) => stamps[entry.index].at),
          ],
        );
        const won = new Set(claimed.map((row) => `${row.actor_uuid}|${row.key}`));
        for (const entry of keyed) {
          if (won.has(`${entry.actorUuid}|${entry.key}`)) continue;
          live.delete(entry.index);
          try {
            settled[entry.index] = { ok: true, value: await keys.storedAnswer(queryRunner.manager, entry) };
          } catch (error) {
            settled[entry.index] = { ok: false, value: error };
          }
        }
      }
      // Every stream of the batch loaded at once, each loader once (one read of all the wallet snapshots).
      const refs: Record<string, StreamRef> = {};
      for (const index of live)
        for (const [name, ref] of Object.entries(batch[index].plan.streams)) refs[`${index}:${name}`] = ref;
      const tx = this.streamTransaction(queryRunner, heads, null);
      const loadedAll = await loadStreams(tx, refs);
      const appends: { append: StreamAppend; metadata: unknown }[] = [];
      const refusedKeys: IdempotentRequest[] = [];
      const completions: { request: IdempotentRequest; response: unknown }[] = [];
      for (const index of live) {
        const { plan, idempotency } = batch[index];
        const loaded = Object.fromEntries(
          Object.keys(plan.streams).map((name) => [name, loadedAll[`${index}:${name}`]]),
        );
        try {
          const decision = plan.decide(loaded, stamps[index]);
          for (const append of appendsOf(plan, loaded, decision))
            appends.push({ append, metadata: stamps[index].metadata });
          if (idempotency) completions.push({ request: idempotency, response: decision.result });
          settled[index] = { ok: true, value: decision.result };
        } catch (error) {
          if (idempotency) refusedKeys.push(idempotency);
          settled[index] = { ok: false, value: error };
        }
      }
      if (refusedKeys.length > 0) {
        await queryRunner.query(
          `DELETE FROM idempotency_keys USING unnest($1::uuid[], $2::text[]) AS k(actor_uuid, key)
            WHERE idempotency_keys.actor_uuid = k.actor_uuid AND idempotency_keys.key = k.key`,
          [refusedKeys.map((request) => request.actorUuid), refusedKeys.map((request) => request.key)],
        );
      }
      await this.appendMerged(queryRunner, appends, heads);
      if (completions.length > 0) {
        await queryRunner.query(
          `UPDATE idempotency_keys SET status_code = 201, response = k.response
             FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS k(actor_uuid, key, response)
            WHERE idempotency_keys.actor_uuid = k.actor_uuid AND idempotency_keys.key = k.key`,
          [
            completions.map((entry) => entry.request.actorUuid),
            completions.map((entry) => entry.request.key),
            completions.map((entry) => JSON.stringify(entry.response)),
          ],
        );
      }
      return settled;
    });
    this.settle(batch, outcomes);
  }

  /** `appendLocked` with metadata per append: one insert of every event, one pass of the inline projections. */
  private async appendMerged(
    queryRunner: QueryRunner,
    appends: { append: StreamAppend; metadata: unknown }[],
    heads: Map<string, StreamHead>,
  ): Promise<void> {
    const built = this.built;
    const pending: {
      streamId: string;
      streamVersion: number;
      type: string;
      data: unknown;
      metadata: Record<string, unknown>;
      dataJson: string;
      metadataJson: string;
      hash: string;
      schemaVersion: number;
    }[] = [];
    const moved: { streamId: string; version: number; lastHash: string | null }[] = [];
    appends.sort((left, right) => built.compareStreamIds(left.append.streamId, right.append.streamId));
    for (const { append, metadata } of appends) {
      const head = heads.get(append.streamId);
      if (!head) throw new Error(`Stream ${append.streamId} was not locked`);
      if (append.expectedVersion !== 'any' && append.expectedVersion !== head.version)
        throw new Error(`Stream ${append.streamId} moved`);
      let { version, lastHash } = head;
      for (const event of append.events) {
        version += 1;
        const schemaVersion = built.store.eventTypes.schemaVersion(event.type);
        const eventMetadata = built.storedMetadata(metadata, schemaVersion);
        const dataJson = JSON.stringify(event.data ?? null);
        const data: unknown = JSON.parse(dataJson);
        const fields = {
          streamId: append.streamId,
          streamVersion: version,
          type: event.type,
          data,
          metadata: eventMetadata,
        };
        const hash = built.chainHash(lastHash, fields);
        pending.push({ ...fields, dataJson, metadataJson: JSON.stringify(eventMetadata), hash, schemaVersion });
        lastHash = hash;
      }
      moved.push({ streamId: append.streamId, version, lastHash });
      heads.set(append.streamId, { version, lastHash });
    }
    if (pending.length === 0) return;
    // The very statement of `appendLocked`, with more rows.
    const inserted: { event_id: string; global_position: string; recorded_at: Date }[] = await queryRunner.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::jsonb[], $6::text[]) WITH ORDINALITY
           AS i(stream_id, stream_version, type, data, metadata, hash, ordinal)
       ), inserted AS (
         INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
         SELECT stream_id, stream_version, type, data, metadata, hash FROM input ORDER BY ordinal
         RETURNING event_id, global_position, recorded_at
       ), moved AS (
         UPDATE streams SET version = h.version, last_hash = h.last_hash
           FROM unnest($7::text[], $8::int[], $9::text[]) AS h(stream_id, version, last_hash)
          WHERE streams.stream_id = h.stream_id
       )
       SELECT event_id::text AS event_id, global_position::text AS global_position, recorded_at
         FROM inserted ORDER BY inserted.global_position`,
      [
        pending.map((event) => event.streamId),
        pending.map((event) => event.streamVersion),
        pending.map((event) => event.type),
        pending.map((event) => event.dataJson),
        pending.map((event) => event.metadataJson),
        pending.map((event) => event.hash),
        moved.map((head) => head.streamId),
        moved.map((head) => head.version),
        moved.map((head) => head.lastHash),
      ],
    );
    const events = pending.map((event, index) => {
      const { [built.schemaVersionKey]: _schemaVersion, ...callerMetadata } = event.metadata;
      return {
        eventId: inserted[index].event_id,
        globalPosition: inserted[index].global_position,
        streamId: event.streamId,
        streamVersion: event.streamVersion,
        type: event.type,
        data: event.data,
        metadata: callerMetadata,
        recordedAt: inserted[index].recorded_at,
        hash: event.hash,
        schemaVersion: event.schemaVersion,
      };
    });
    await built.store.projections.apply(events, queryRunner.manager);
  }

  private settle(batch: Queued[], outcomes: { ok: boolean; value: unknown }[]): void {
    for (const [index, item] of batch.entries()) {
      const { ok, value } = outcomes[index];
      if (ok) item.resolve(value);
      else if (value instanceof this.built.IdempotentReplay) item.resolve(value.response);
      else item.reject(value);
    }
  }
}

function appendsOf(
  plan: Plan,
  loaded: Record<string, LoadedStream>,
  decision: { events: Record<string, unknown[]> },
): StreamAppend[] {
  const appends: StreamAppend[] = [];
  for (const name of Object.keys(plan.streams)) {
    const events = decision.events[name];
    if (!events || events.length === 0) continue;
    appends.push({
      streamId: loaded[name].streamId,
      expectedVersion: loaded[name].version,
      events: events as StreamAppend['events'],
    });
  }
  return appends;
}

/** `loadStreams` of the pipeline: each loader once, with all of its streams. */
async function loadStreams(tx: unknown, refs: Record<string, StreamRef>): Promise<Record<string, LoadedStream>> {
  const byLoader = new Map<StreamRef['loader'], string[]>();
  for (const ref of Object.values(refs)) byLoader.set(ref.loader, [...(byLoader.get(ref.loader) ?? []), ref.streamId]);
  const states = new Map<string, LoadedStream>();
  for (const [loader, ids] of byLoader) for (const [id, stream] of await loader.load(tx, ids)) states.set(id, stream);
  return Object.fromEntries(Object.entries(refs).map(([name, ref]) => [name, states.get(ref.streamId)!]));
}
