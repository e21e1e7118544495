import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, Worker, workerData, type WorkerOptions } from 'node:worker_threads';

/** Where a worker's entry file is: its folder (`__dirname` of the caller) and its name without extension. */
export interface WorkerEntry {
  directory: string;
  name: string;
}

/**
 * The young generation of each worker. The workers replay history in batches of decoded events, which outlive
 * several collections of V8's default size and are copied each time. V8 counts the young generation as about three
 * semi-spaces, so this gives a worker the 64 MiB semi-space the history-replaying commands give their main thread
 * (ADR 0043).
 */
const WORKER_YOUNG_GENERATION_MB = 192;

/**
 * Runs a worker thread's one task and gives its result. The worker module calls `serveWorkerThread`; an error
 * thrown there rejects this promise with it. In the build the entry is the compiled `.js` file; under the test
 * runner, which compiles TypeScript in memory, it is the `.ts` source, which the worker compiles itself with tsx.
 */
export function runWorkerThread<Request, Result>(entry: WorkerEntry, request: Request): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(entry, request, {
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    let answered = false;
    worker.once('message', (result: Result) => {
      answered = true;
      resolve(result);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`worker ${entry.name} stopped with exit code ${code} and no result`));
    });
  });
}

/**
 * Starts a worker thread on its entry and gives it `data` as `workerData`, for a worker that lives longer than one
 * task and talks through messages (the republish's producers). The entry is found as `runWorkerThread` finds it.
 */
export function startWorkerThread(
  entry: WorkerEntry,
  data: unknown,
  options: Pick<WorkerOptions, 'resourceLimits'> = {},
): Worker {
  const compiled = join(entry.directory, `${entry.name}.js`);
  const [filename, execArgv] = existsSync(compiled)
    ? [compiled, []]
    : [join(entry.directory, `${entry.name}.ts`), ['--require', 'tsx/cjs']];
  return new Worker(filename, { ...options, workerData: data, execArgv });
}

/** The worker's side of `runWorkerThread`: runs `work` on the request and posts its result, or fails with its error. */
export function serveWorkerThread<Request, Result>(work: (request: Request) => Promise<Result>): void {
  work(workerData as Request).then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) => {
      // Thrown outside the promise chain, so the worker stops with it and the parent's 'error' listener receives it.
      setImmediate(() => {
        throw error;
      });
    },
  );
}
