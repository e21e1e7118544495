import { systemContext } from '../auth';
import { ManualClock } from '../clock/clock';
import type { EventStore } from '../event-store/event-store.port';
import { Metrics } from '../observability/metrics';
import { type BatchKeys, CommandBatches } from './command-batches';
import type { StreamLoader } from './command-pipeline';

const loader: StreamLoader<null> = {
  load: async (_tx, ids) => new Map(ids.map((streamId) => [streamId, { streamId, state: null, version: 0 }])),
};
const noKeys = {} as BatchKeys;

interface Deferred {
  promise: Promise<string>;
  resolve(value: string): void;
}
const deferred = (): Deferred => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((done) => (resolve = done));
  return { promise, resolve };
};

describe('CommandBatches', () => {
  /** What committed, in order: a merged batch's commands in its order, and each command run alone. */
  let committed: string[][];
  let batches: CommandBatches;
  let failNextBatch: boolean;

  beforeEach(() => {
    committed = [];
    failNextBatch = false;
    const store = {
      transactBatch: async (_ids: readonly string[], work: (tx: unknown) => Promise<{ result: unknown }>) => {
        const { result } = await work({ rowsReadWithLocks: [] });
        if (failNextBatch) {
          failNextBatch = false;
          throw new Error('a projection failed');
        }
        const settled = result as { ok: boolean; value?: unknown }[];
        committed.push(settled.map((one) => (one.ok ? String(one.value) : 'refused')));
        return { result, append: { events: [], streamVersions: {} } };
      },
    } as unknown as EventStore;
    batches = new CommandBatches(
      store,
      new ManualClock(new Date('2026-12-01T00:00:00Z')),
      new Metrics({ processMetrics: false }),
      {
        enabled: true,
      },
    );
  });

  /** A command named `name` on `streams`; run alone, it commits when `until` resolves. */
  const command = (name: string, streams: string[], until?: Promise<string>) =>
    batches.run({
      plan: {
        context: systemContext(),
        streams: Object.fromEntries(streams.map((streamId) => [streamId, { streamId, loader }])),
        decide: () => {
          if (name.startsWith('refused')) throw new Error(`${name} refused`);
          return { events: Object.fromEntries(streams.map((id) => [id, [{ type: 'T', data: {} }]])), result: name };
        },
      },
      key: null,
      keys: noKeys,
      alone: async () => {
        const value = await (until ?? Promise.resolve(name));
        committed.push([`${value} alone`]);
        return value;
      },
    });

  /** Given both batches in flight, on streams `x` and `y`, until `first` and `second` let them commit. */
  const occupied = () => {
    const [first, second] = [deferred(), deferred()];
    const running = [command('x', ['x'], first.promise), command('y', ['y'], second.promise)];
    return { first, second, running };
  };

  it('starts a lone command at once, on its own, with no timer', () => {
    const alone = jest.fn(() => Promise.resolve('lone'));
    void batches.run({
      plan: { context: systemContext(), streams: { a: { streamId: 'a', loader } }, decide: jest.fn() },
      key: null,
      keys: noKeys,
      alone,
    });
    // Synchronously: nothing waited for a timer or a tick.
    expect(alone).toHaveBeenCalledTimes(1);
  });

  it('takes what queued behind two batches in flight as one batch, a refusal answered alone', async () => {
    const { first, second, running } = occupied();
    const queued = [command('a', ['a']), command('refused b', ['b']), command('c', ['c'])];
    expect(batches.queued).toBe(3);
    first.resolve('x');
    const results = await Promise.allSettled(queued);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed).toEqual([['x alone'], ['a', 'refused', 'c']]);
    second.resolve('y');
    await Promise.all(running);
  });

  it('commits each stream in arrival order: a command on a taken stream holds back the later ones on its streams', async () => {
    const { first, second, running } = occupied();
    const queued = [
      command('a1', ['a']),
      command('a2', ['a']),
      command('b1', ['b']),
      command('a3 b2', ['a', 'b']),
      command('b3', ['b']),
      command('x2', ['x']),
    ];
    first.resolve('x');
    await Promise.all(queued);
    second.resolve('y');
    await Promise.all(running);
    // The commands that wrote `stream`, in commit order.
    const order = (stream: string) =>
      committed
        .flat()
        .map((name) => name.replace(/ alone$/, ''))
        .filter((name) => name.split(' ').some((part) => new RegExp(`^${stream}\\d`).test(part)));
    expect(order('a')).toEqual(['a1', 'a2', 'a3 b2']);
    expect(order('b')).toEqual(['b1', 'a3 b2', 'b3']);
    // x2 waited for x, which was in flight when it arrived, then went in the first batch with a1 and b1.
    expect(committed[1]).toEqual(['a1', 'b1', 'x2']);
  });

  it('runs every command of a batch alone again when the batch fails after its writes began', async () => {
    const { first, second, running } = occupied();
    const queued = [command('a', ['a']), command('b', ['b'])];
    failNextBatch = true;
    first.resolve('x');
    expect(await Promise.all(queued)).toEqual(['a', 'b']);
    expect(committed.slice(1)).toEqual([['a alone'], ['b alone']]);
    second.resolve('y');
    await Promise.all(running);
  });
});
