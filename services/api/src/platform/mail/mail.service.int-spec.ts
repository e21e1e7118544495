import { createServer, type Server, type Socket } from 'node:net';
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

  it('gives up on a server that accepts the connection and never greets, within the greeting limit', async () => {
    // A stalled server must not hold the outbox's one lane: the attempt fails and the outbox retries it later.
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const mail = new MailService({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Kupa <no-reply@kupa.test>',
      timeLimitsMs: { greeting: 300 },
    });
    const startedMs = Date.now();
    try {
      await expect(mail.send({ to: 'dana@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/greeting/i);
      expect(Date.now() - startedMs).toBeLessThan(5_000);
      expect(sockets).toHaveLength(1);
    } finally {
      mail.onModuleDestroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
