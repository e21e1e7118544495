import { type DynamicModule, Logger, Module, type ModuleMetadata, type OnModuleInit, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock';
import { APP_CONFIG, type AppConfig, queuePollIntervalMs } from '../../../../platform/config';
import { Metrics } from '../../../../platform/observability';
import { BackgroundLoops } from '../../../../platform/workers';
import { HttpProvisioningProvider } from './http-provisioning-provider';
import {
  FixedProvisioningEndpoint,
  ProvisioningEndpoint,
  SelfOriginProvisioningEndpoint,
} from './provisioning-endpoint';
import { ProvisioningJobRunner } from './provisioning-job-runner';
import { readProvisioningQueue } from './provisioning-jobs';
import { OutcomesNotConnected, SecretsNotConnected } from './provisioning-not-connected';
import { ProvisioningOutcomes } from './provisioning-outcomes.port';
import { ProvisioningProvider } from './provisioning-provider.port';
import { ProvisioningSecrets } from './provisioning-secrets.port';
import { SandboxStreamingSettings } from './simulator/sandbox-door';
import { SandboxStreamingController } from './simulator/sandbox-streaming.controller';
import { SandboxStreamingStore } from './simulator/sandbox-streaming.store';

export interface ProvisioningModuleOptions {
  /** Modules the bindings below need. */
  imports?: ModuleMetadata['imports'];
  /** Where job outcomes go: the subscriptions context's activate and refund commands. */
  outcomes?: Type<ProvisioningOutcomes>;
  /** Where passwords come from: the subscriptions context's pending-password table. */
  secrets?: Type<ProvisioningSecrets>;
}

/**
 * Provisioning at the streaming service (docs/adr/0025-provisioning.md): the `ProvisioningProvider` port over HTTP,
 * the durable job queue and its runner (a background loop), and the built-in simulator. The subscriptions context
 * binds `ProvisioningOutcomes` and `ProvisioningSecrets` through `register`; until it does, jobs wait.
 */
@Module({})
export class ProvisioningModule implements OnModuleInit {
  constructor(
    private readonly loops: BackgroundLoops,
    private readonly runner: ProvisioningJobRunner,
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  static register(options: ProvisioningModuleOptions = {}): DynamicModule {
    const logger = new Logger('Provisioning');
    return {
      module: ProvisioningModule,
      imports: options.imports ?? [],
      controllers: [SandboxStreamingController],
      providers: [
        {
          provide: SandboxStreamingSettings,
          useFactory: (config: AppConfig) =>
            new SandboxStreamingSettings(
              // Never on a real deployment: loadConfig already refuses one without PROVISIONING_URL or KUPA_SANDBOX.
              config.sandbox && config.provisioningUrl === null,
              config.provisioningSimulatorFaults,
              config.provisioningToken,
              config.provisioningTimeoutMs + 1000,
            ),
          inject: [APP_CONFIG],
        },
        SandboxStreamingStore,
        {
          provide: ProvisioningEndpoint,
          useFactory: (config: AppConfig, host: HttpAdapterHost) =>
            config.provisioningUrl === null
              ? new SelfOriginProvisioningEndpoint(
                  () =>
                    host.httpAdapter?.getHttpServer() as { address(): string | { port: number } | null } | undefined,
                  config.port,
                  config.provisioningToken,
                )
              : new FixedProvisioningEndpoint(config.provisioningUrl, config.provisioningToken),
          inject: [APP_CONFIG, HttpAdapterHost],
        },
        {
          provide: ProvisioningProvider,
          useFactory: (endpoint: ProvisioningEndpoint, config: AppConfig) =>
            new HttpProvisioningProvider(endpoint, { timeoutMs: config.provisioningTimeoutMs }),
          inject: [ProvisioningEndpoint, APP_CONFIG],
        },
        { provide: ProvisioningOutcomes, useClass: options.outcomes ?? OutcomesNotConnected },
        { provide: ProvisioningSecrets, useClass: options.secrets ?? SecretsNotConnected },
        {
          provide: ProvisioningJobRunner,
          useFactory: (
            dataSource: DataSource,
            provider: ProvisioningProvider,
            secrets: ProvisioningSecrets,
            outcomes: ProvisioningOutcomes,
            clock: Clock,
            config: AppConfig,
            metrics: Metrics,
          ) =>
            new ProvisioningJobRunner(dataSource, provider, secrets, outcomes, clock, {
              pollIntervalMs: queuePollIntervalMs(config),
              maxAttempts: config.provisioningRetryAttempts,
              retryBaseMs: config.provisioningRetryBaseMs,
              retryMaxMs: config.provisioningRetryMaxMs,
              leaseMs: config.provisioningLeaseMs,
              concurrency: config.provisioningConcurrency,
              // Messages name the operation and the status only: no password, no token.
              onError: (error) => logger.warn(`Provisioning job not finished: ${messageOf(error)}`),
              onCall: (operation, outcome) => metrics.recordProvisioningCall(operation, outcome),
            }),
          inject: [
            getDataSourceToken(),
            ProvisioningProvider,
            ProvisioningSecrets,
            ProvisioningOutcomes,
            Clock,
            APP_CONFIG,
            Metrics,
          ],
        },
      ],
      exports: [ProvisioningProvider, ProvisioningJobRunner],
    };
  }

  onModuleInit(): void {
    this.loops.register(this.runner);
    // The queue's depth and its oldest job at each scrape: a service that keeps failing shows as a growing queue.
    this.metrics.onScrape(async (metrics) => {
      const queue = await readProvisioningQueue(this.dataSource, this.clock.now());
      metrics.provisioningJobsPending.set(queue.pending);
      metrics.provisioningOldestPendingSeconds.set(queue.oldestPendingSeconds);
    });
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
