import { isStaffRole } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { enqueueMails, MAIL_PRIORITY, type OutboxMail } from '../../../../platform/mail';
import type { Processor } from '../../../../platform/projections';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import type { UserEvent } from '../../domain/user.events';
import {
  CONFIRMATION_MAIL_KIND,
  EMAIL_CHANGE_LINK_MAIL_KIND,
  EMAIL_CHANGE_REQUESTED_MAIL_KIND,
  EMAIL_CHANGED_MAIL_KIND,
  type IdentityMailPayload,
  PASSWORD_RESET_MAIL_KIND,
  TWO_FACTOR_RESET_MAIL_KIND,
} from '../../infrastructure/mail/identity-mails';

export const IDENTITY_MAILS_PROCESSOR = 'identity-mails';

/**
 * Turns the identity events that call for a mail into outbox rows, in the transaction that moves this processor's
 * checkpoint: a sign-up, a request for the confirmation mail again, a request for a password-reset link, and a
 * client's or ambassador's two-factor sign-in reset by staff (docs/adr/0098-client-two-factor-and-step-up.md), and a
 * change of e-mail asked for and done (docs/adr/0100-change-of-e-mail.md), whose mails go to the addresses the event
 * names rather than the account's current one. The causing
 * event's position is the dedupe key, so a batch handled twice (another runner, a restart) records each mail once.
 * The recipient's address and name come from the users read model, which the same append already updated. Every one
 * of these mails is urgent: a person waits for its link, or must hear at once of a change to the account's security.
 */
export class IdentityMailsProcessor implements Processor {
  readonly name = IDENTITY_MAILS_PROCESSOR;
  readonly handles = [
    'UserRegistered',
    'UserConfirmationMailRequested',
    'UserPasswordResetRequested',
    'UserTwoFactorReset',
    'UserEmailChangeRequested',
    'UserEmailChanged',
  ] as const;

  constructor(private readonly clock: { now(): Date }) {}

  async handle(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const userUuids = [...new Set(events.map((event) => (event.data as { userUuid: string }).userUuid))];
    const rows: Array<{ uuid: string; email: string; first_name: string; language: string }> = await manager.query(
      'SELECT uuid, email, first_name, language FROM users WHERE uuid = ANY($1::uuid[])',
      [userUuids],
    );
    const users = new Map(rows.map((row) => [row.uuid, row]));
    const mails: OutboxMail[] = [];
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as UserEvent;
      const user = users.get((event.data as { userUuid: string }).userUuid);
      if (!user) continue;
      const payload: IdentityMailPayload = { userUuid: user.uuid, firstName: user.first_name };
      const base = {
        dedupeKey: `event:${recorded.eventId}`,
        recipient: user.email,
        payload: { ...payload },
        priority: MAIL_PRIORITY.urgent,
      };
      switch (event.type) {
        case 'UserRegistered':
        case 'UserConfirmationMailRequested':
          mails.push({ ...base, kind: CONFIRMATION_MAIL_KIND, language: event.data.language });
          break;
        case 'UserPasswordResetRequested':
          mails.push({ ...base, kind: PASSWORD_RESET_MAIL_KIND, language: event.data.language });
          break;
        case 'UserTwoFactorReset':
          // Staff are told in person by the admin who reset it; a client learns it from this mail.
          if (!isStaffRole(event.data.userRole))
            mails.push({ ...base, kind: TWO_FACTOR_RESET_MAIL_KIND, language: user.language === 'en' ? 'en' : 'he' });
          break;
        case 'UserEmailChangeRequested': {
          const change = { ...payload, newEmail: event.data.newEmail };
          mails.push({
            ...base,
            dedupeKey: `event:${recorded.eventId}:new-address`,
            recipient: event.data.newEmail,
            payload: { ...change },
            kind: EMAIL_CHANGE_LINK_MAIL_KIND,
            language: event.data.language,
          });
          mails.push({
            ...base,
            recipient: event.data.currentEmail,
            payload: { ...change },
            kind: EMAIL_CHANGE_REQUESTED_MAIL_KIND,
            language: event.data.language,
          });
          break;
        }
        case 'UserEmailChanged':
          mails.push({
            ...base,
            recipient: event.data.previousEmail,
            payload: { ...payload, newEmail: event.data.email },
            kind: EMAIL_CHANGED_MAIL_KIND,
            language: user.language === 'en' ? 'en' : 'he',
          });
          break;
        default:
          break;
      }
    }
    await enqueueMails(manager, mails, this.clock.now());
  }
}
