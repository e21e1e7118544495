import { type DynamicModule, Global, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { Metrics } from '../observability/metrics';
import { MailDispatcher, type MailDispatcherOptions, readOutbox } from './mail-outbox';
import { MAIL_OPTIONS, type MailOptions, MailService } from './mail.service';

export interface MailModuleOptions extends MailOptions {
  dispatcher: Omit<MailDispatcherOptions, 'onError' | 'onOutcome'>;
}

@Global()
@Module({})
export class MailModule implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** The outbox's depth and its oldest unsent mail at each scrape: a stalled dispatcher shows there first. */
  onModuleInit(): void {
    this.metrics.onScrape(async (metrics) => {
      const outbox = await readOutbox(this.dataSource, this.clock.now());
      metrics.mailOutboxUnsent.set(outbox.unsent);
      metrics.mailOutboxOldestUnsentSeconds.set(outbox.oldestUnsentSeconds);
    });
  }

  static register(options: MailModuleOptions): DynamicModule {
    const logger = new Logger('Mail');
    return {
      module: MailModule,
      providers: [
        { provide: MAIL_OPTIONS, useValue: { smtpUrl: options.smtpUrl, from: options.from } satisfies MailOptions },
        MailService,
        {
          provide: MailDispatcher,
          useFactory: (dataSource: DataSource, mail: MailService, clock: Clock, metrics: Metrics) =>
            new MailDispatcher(dataSource, mail, clock, {
              ...options.dispatcher,
              // The address is personal data and SMTP errors can echo it back: the log keeps only the reason.
              onError: (error) => logger.warn(`Mail not sent, will retry: ${reasonOf(error)}`),
              onOutcome: (outcome) => metrics.recordMail(outcome),
            }),
          inject: [getDataSourceToken(), MailService, Clock, Metrics],
        },
      ],
      exports: [MailService, MailDispatcher],
    };
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/[^\s<>@]+@[^\s<>@]+/g, '<address>');
}
