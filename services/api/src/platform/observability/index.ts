export { HealthController } from './health.controller';
export { useHttpObservability } from './http-observability';
export { createPinoLogger, JsonLogger, type JsonLogOptions } from './json-logger';
export { currentLogContext, currentOperation, type LogContext, routeOf, withLogContext } from './log-context';
export { MetricsController } from './metrics.controller';
export {
  type CommandOutcome,
  type MailOutcome,
  Metrics,
  type ProvisioningCallOutcome,
  type ReplicaGauges,
  type ScrapeReading,
  type TelegramOutcome,
} from './metrics';
export { ObservabilityModule } from './observability.module';
export { chooseLogFormat, colourWanted, type LogFormat, prettyLine } from './pretty-log';
export { markProcessNotLive, processNotLiveReason } from './process-liveness';
export { LAG_WATCH_INTERVAL_MS, ProcessorLagWatch } from './processor-lag-watch';
export { READY_CHECK_TIMEOUT_MS } from './readiness-checks';
export { startWorkerObservability, type WorkerObservability } from './worker-observability';
export { REQUEST_ID_HEADER, requestIdFrom, requestIdOf } from './request-id';
