import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { SecretBox } from '../../../platform/crypto';

/**
 * What the passwords' key is derived for from `TWO_FACTOR_KEY`, the root key of secrets kept at rest; it must not
 * change, or the passwords waiting to be provisioned no longer open.
 */
const SUBSCRIPTION_PASSWORDS_PURPOSE = 'subscription passwords';

/**
 * The streaming-service passwords of subscriptions (docs/adr/0024-subscriptions.md): never in an event, a log or an
 * answer, and at rest only sealed (AES-256-GCM, bound to the subscription and the version it belongs to), from the
 * moment a client chooses one until the streaming service has it. A purchase, a trial and a password change write
 * one row in their command's transaction (the pipeline's `alongside`), keyed by the stream version of the event that
 * explains it, so the row commits with its event or not at all and the newest version is the one to apply. Rows
 * written before passwords were sealed hold them in `password` and are read as they are until applied and deleted.
 */
@Injectable()
export class SubscriptionSecrets {
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(config.twoFactorKey, SUBSCRIPTION_PASSWORDS_PURPOSE);
  }

  async write(
    manager: EntityManager,
    secret: { subscriptionId: string; version: number; password: string; at: Date },
  ): Promise<void> {
    const sealed = this.box.seal(secret.password, associatedData(secret.subscriptionId, secret.version));
    await manager.query(
      `INSERT INTO subscription_secrets (subscription_id, version, password_sealed, created_at) VALUES ($1, $2, $3, $4)`,
      [secret.subscriptionId, secret.version, sealed, secret.at],
    );
  }

  /** The password to apply at the streaming service: the newest one written; null when none waits. */
  async newest(
    subscriptionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ version: number; password: string } | null> {
    const rows: Array<{ version: number; password: string | null; password_sealed: string | null }> =
      await manager.query(
        `SELECT version, password, password_sealed FROM subscription_secrets WHERE subscription_id = $1
          ORDER BY version DESC LIMIT 1`,
        [subscriptionId],
      );
    const row = rows[0];
    if (!row) return null;
    const password =
      row.password_sealed === null
        ? row.password
        : this.box.open(row.password_sealed, associatedData(subscriptionId, row.version));
    if (password === null) throw new Error(`The secret of ${subscriptionId} version ${row.version} holds nothing`);
    return { version: row.version, password };
  }

  /** Forgets the passwords up to `version` once the streaming service has the one of that version. */
  async forgetUpTo(subscriptionId: string, version: number, manager: EntityManager = this.dataSource.manager) {
    await manager.query(`DELETE FROM subscription_secrets WHERE subscription_id = $1 AND version <= $2`, [
      subscriptionId,
      version,
    ]);
  }

  /** Forgets every password of the subscription: a purchase that will not happen, or an account never created. */
  async forgetAll(subscriptionId: string, manager: EntityManager = this.dataSource.manager) {
    await manager.query(`DELETE FROM subscription_secrets WHERE subscription_id = $1`, [subscriptionId]);
  }
}

/** A sealed password opens only on the row of the subscription and version it was written for. */
function associatedData(subscriptionId: string, version: number): string {
  return `${subscriptionId}/${version}`;
}
