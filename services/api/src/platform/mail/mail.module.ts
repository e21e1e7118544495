import { type DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { Metrics } from '../observability/metrics';
import { MailDispatcher, type MailDispatcherOptions } from './mail-outbox';
import { MAIL_OPTIONS, type MailOptions, MailService } from './mail.service';

export interface MailModuleOptions extends MailOptions {
  dispatcher: Omit<MailDispatcherOptions, 'onError' | 'onOutcome'>;
}

@Global()
@Module({})
export class MailModule {
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
