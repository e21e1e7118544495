import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';

/** Where a worker's entry file is: its folder (`__dirname` of the caller) and its name without extension. */
export interface WorkerEntry {
  directory: string;
  name: string;
}

/**
 * Runs a worker thread's one task and gives its result. The worker module calls `serveWorkerThread`; an error
 * thrown there rejects this promise with it. In the build the entry is the compiled `.js` file; under the test
 * runner, which compiles TypeScript in memory, it is the `.ts` source, which the worker compiles itself with tsx.
 * `youngGenerationMb` sizes the worker's young generation: batches of decoded events outlive several collections of
 * V8's default and are copied each time (ADR 0043).
 */
export function runWorkerThread<Request, Result>(
  entry: WorkerEntry,
  request: Request,
  youngGenerationMb: number,
): Promise<Result> {
  const compiled = join(entry.directory, `${entry.name}.js`);
  const [filename, execArgv] = existsSync(compiled)
    ? [compiled, []]
    : [join(entry.directory, `${entry.name}.ts`), ['--require', 'tsx/cjs']];
  return new Promise((resolve, reject) => {
    const worker = new Worker(filename, {
      workerData: request,
      execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
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
