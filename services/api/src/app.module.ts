import { OperationsModule } from './contexts/operations';
import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from './contexts/audit';
import { CatalogModule } from './contexts/catalog';
import { CommonModule } from './contexts/common';
import { IdentityModule } from './contexts/identity';
import { LedgerModule } from './contexts/ledger';
import { NotificationsModule } from './contexts/notifications';
import { ReportingModule } from './contexts/reporting';
import { DemoModule } from './demo';
import {
  ProvisioningModule,
  SubscriptionProvisioningOutcomes,
  SubscriptionProvisioningSecrets,
  SubscriptionsModule,
} from './contexts/subscriptions';
import { PlatformAuthModule } from './platform/auth';
import { CardProviderModule } from './platform/card-provider';
import { CashierModule } from './platform/cashier';
import { PlatformHttpModule } from './platform/http';
import { IdempotencyModule } from './platform/idempotency';
import { type Clock, ClockModule } from './platform/clock';
import { type AppConfig, ConfigModule, queuePollIntervalMs } from './platform/config';
import { EventStoreModule } from './platform/event-store';
import { KafkaModule } from './platform/kafka';
import { MailModule } from './platform/mail';
import { ObservabilityModule } from './platform/observability';
import { TelegramModule } from './platform/telegram';
import { WorkersModule } from './platform/workers';
import { LIMITS } from '@kupa/proto';
import { ALL_MIGRATIONS } from './schema';
import { DataSource } from 'typeorm';
import { listenForConnectionErrors } from './platform/database/connection-errors';
import { migrateUnderLock } from './platform/database/migrate-under-lock';
import { DATABASE_SESSION_OPTIONS } from './platform/database/session-options';
import { ReadReplicaModule } from './platform/database/read-replica.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  version: string;
  clock?: Clock;
  /** Serve the built UIs beside the API (the one-process start). */
  serveUi?: boolean;
  /** Silence the logger (tests, the CLI). */
  quiet?: boolean;
}

export const DATABASE_POOL_SIZE = 20;

@Module({})
export class AppModule {
  static register(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(options.config),
        ClockModule.register(options.clock),
        CqrsModule.forRoot(),
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            type: 'postgres',
            url: options.databaseUrl,
            migrations: ALL_MIGRATIONS,
            migrationsRun: false,
            migrationsTransactionMode: 'each',
            synchronize: false,
            logging: false,
            extra: {
              max: DATABASE_POOL_SIZE,
              options: DATABASE_SESSION_OPTIONS,
              connectionTimeoutMillis: options.config.databaseConnectTimeoutMs,
              onConnect: listenForConnectionErrors,
            },
          }),
          dataSourceFactory: async (dataSourceOptions) => {
            if (!dataSourceOptions) throw new Error('No database options');
            return migrateUnderLock(await new DataSource(dataSourceOptions).initialize());
          },
        }),
        ObservabilityModule,
        ReadReplicaModule,
        EventStoreModule,
        MailModule.register({
          smtpUrl: options.config.smtpUrl,
          from: options.config.mailFrom,
          dispatcher: {
            pollIntervalMs: queuePollIntervalMs(options.config),
            retryBaseMs: options.config.mailRetryBaseMs,
            retryMaxMs: options.config.mailRetryMaxMs,
            messageIdDomain: new URL(options.config.publicUrl).hostname || 'kupa.local',
            sealingKey: options.config.twoFactorKey,
          },
        }),
        WorkersModule,
        KafkaModule,
        PlatformAuthModule.register({
          jwtSecret: options.config.jwtSecret,
          accessTokenTtlSeconds: LIMITS.accessTokenTtlSeconds,
          staffSecondFactorRequired: options.config.staff2faRequired,
        }),
        // Global interceptors run after every guard: a body sent to a route that takes none is refused only then.
        PlatformHttpModule,
        IdempotencyModule,
        CashierModule,
        CardProviderModule,
        TelegramModule,
        IdentityModule,
        LedgerModule,
        CatalogModule,
        SubscriptionsModule,
        AuditModule,
        NotificationsModule,
        ProvisioningModule.register({
          outcomes: SubscriptionProvisioningOutcomes,
          secrets: SubscriptionProvisioningSecrets,
        }),
        ReportingModule,
        OperationsModule,
        CommonModule.register({
          version: options.version,
          support: { telegram: options.config.supportTelegram, email: options.config.supportEmail },
          streamingSiteUrl: options.config.streamingConnect?.siteUrl ?? null,
        }),
        // Last, so that its start-up seeding finds every context's command handlers registered.
        DemoModule,
      ],
    };
  }
}
