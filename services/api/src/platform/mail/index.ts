export { MailModule } from './mail.module';
export { type MailMessage, MailService } from './mail.service';
