import { Mailbox } from '../../test-support/mailbox';
import { MailService } from './mail.service';

describe('MailService over real SMTP', () => {
  let mailbox: Mailbox;

  beforeAll(async () => {
    mailbox = await Mailbox.start();
  });

  afterAll(async () => {
    await mailbox.stop();
  });

  it('delivers a Hebrew message whose long link survives transfer encoding', async () => {
    const mail = new MailService({ smtpUrl: mailbox.url, from: 'Kupa <no-reply@kupa.test>' });
    const link = `http://kupa.test/confirmation-token/${'a'.repeat(90)}`;
    await mail.send({
      to: 'Dana@Example.com',
      subject: 'אישור הרשמה לקופה',
      text: `שלום דנה,\nלאישור החשבון: ${link}\nתודה`,
    });
    const received = await mailbox.waitFor('dana@example.com');
    expect(received.subject).toBe('אישור הרשמה לקופה');
    expect(Mailbox.link(received, 'http://kupa.test/confirmation-token/')).toBe(link);
    expect(received.text).toContain('שלום דנה');
    mail.onModuleDestroy();
  });
});
