import { ERROR_CATALOGUE, type ErrorCode } from '@kupa/proto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import type { Metrics } from './metrics';
import { metricsRefusal } from './metrics.controller';
import { servingChecks } from './readiness-checks';
import { processNotLiveReason } from './process-liveness';

export interface WorkerObservabilityOptions {
  /** `WORKER_PORT`; 0 lets the system choose (tests). */
  port: number;
  config: Pick<AppConfig, 'metricsToken' | 'databaseUrl'>;
  metrics: Metrics;
  dataSource: DataSource;
  /** Whether the background work runs (it is started after the server listens, and stops on shutdown). */
  working: () => boolean;
}

export interface WorkerObservability {
  /** The port it listens on, the chosen one when asked for 0. */
  port: number;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

function refuse(response: ServerResponse, code: ErrorCode): void {
  const { status, en } = ERROR_CATALOGUE[code];
  json(response, status, { status, error: code, message: en });
}

/**
 * A worker's own health and metrics (docs/adr/0063): a worker serves no API, yet its mails, provisioning calls,
 * queues and processor lags must be scraped, and an orchestrator must see it alive. Plain `node:http` on a port of
 * its own, three routes: `/health/live` (the process answers and has not given itself up), `/health/ready` (the database answers, the schema is
 * current and the background work runs) and `/metrics`, guarded by `METRICS_TOKEN` exactly as the API's
 * `/api/metrics` is. Error messages stay out of the answers, as on the API's probes.
 */
export async function startWorkerObservability(options: WorkerObservabilityOptions): Promise<WorkerObservability> {
  // Down only once the process gave itself up (an embedded PostgreSQL that did not come back, ADR 0064) and exits.
  const live = (response: ServerResponse) =>
    processNotLiveReason() === null
      ? json(response, 200, { status: 'ok' })
      : json(response, 503, { status: 'error', details: { process: { status: 'down', reason: 'unrecoverable' } } });

  const ready = async (response: ServerResponse) => {
    const details = {
      ...(await servingChecks(options.dataSource)),
      work: options.working() ? ({ status: 'up' } as const) : ({ status: 'down' } as const),
    };
    const up = Object.values(details).every((state) => state.status === 'up');
    json(response, up ? 200 : 503, { status: up ? 'ok' : 'error', details });
  };

  const scrape = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = metricsRefusal(options.config, request.headers.authorization);
    if (refusal !== null) return refuse(response, refusal);
    const text = await options.metrics.scrape();
    response.writeHead(200, { 'Content-Type': options.metrics.contentType, 'Cache-Control': 'no-store' });
    response.end(text);
  };

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET') return refuse(response, 'error.bad.request');
    const answer =
      path === '/health/live'
        ? Promise.resolve(live(response))
        : path === '/health/ready'
          ? ready(response)
          : path === '/metrics'
            ? scrape(request, response)
            : Promise.resolve(refuse(response, 'error.entity.not.found'));
    answer.catch(() => {
      if (!response.headersSent) refuse(response, 'error.internal.server.error');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
