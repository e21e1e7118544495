import { type DynamicModule, Global, Module } from '@nestjs/common';
import { MAIL_OPTIONS, type MailOptions, MailService } from './mail.service';

@Global()
@Module({})
export class MailModule {
  static register(options: MailOptions): DynamicModule {
    return {
      module: MailModule,
      providers: [{ provide: MAIL_OPTIONS, useValue: options }, MailService],
      exports: [MailService],
    };
  }
}
