import { Inject, Injectable } from '@nestjs/common';
import { checkUuid } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { linkSignature, sameText } from '../../../platform/crypto';

/** What the signing key is derived for; changing it would void every unsubscribe link already mailed. */
const PURPOSE = 'announcements-unsubscribe';

/**
 * The token of an announcement's unsubscribe link (ADR 0091): the client's uuid and its signature under a key derived
 * from JWT_SECRET, so the link works without signing in and for good, and nobody can make one for another client.
 */
@Injectable()
export class UnsubscribeTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  tokenFor(userUuid: string): string {
    return `${userUuid}.${linkSignature(this.config.jwtSecret, PURPOSE, userUuid)}`;
  }

  /** The client a token names, or null when it is not one this installation signed. */
  userOf(token: string): string | null {
    const [userUuid, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !userUuid || !signature || checkUuid(userUuid) !== null) return null;
    return sameText(signature, linkSignature(this.config.jwtSecret, PURPOSE, userUuid)) ? userUuid : null;
  }

  /** The portal's page that asks before unsubscribing (the mail's visible link). */
  pageUrl(userUuid: string): string {
    return `${this.config.publicUrl}/unsubscribe?token=${encodeURIComponent(this.tokenFor(userUuid))}`;
  }

  /** The one-click address mail clients POST to (List-Unsubscribe, RFC 8058). */
  oneClickUrl(userUuid: string): string {
    return `${this.config.publicUrl}/api/announcements/unsubscribe?token=${encodeURIComponent(this.tokenFor(userUuid))}`;
  }
}
