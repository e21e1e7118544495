export { MailModule, type MailModuleOptions } from './mail.module';
export { type MailMessage, MailService } from './mail.service';
export {
  enqueueMails,
  MAIL_PRIORITY,
  type MailKind,
  type MailPriority,
  MailDispatcher,
  type MailDispatcherOptions,
  type OutboxMail,
  type StoredMail,
} from './mail-outbox';
export { type RenderedMail } from './templates';
