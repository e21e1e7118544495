import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The streaming-service passwords of subscriptions (docs/adr/0024-subscriptions.md): never in an event, a log or an
 * answer. A purchase, a trial and a password change write one row in their command's transaction (the pipeline's
 * `alongside`), keyed by the stream version of the event that explains it, so the row commits with its event or not
 * at all and the newest version is the one to apply.
 */
@Injectable()
export class SubscriptionSecrets {
  constructor(private readonly dataSource: DataSource) {}

  async write(
    manager: EntityManager,
    secret: { subscriptionId: string; version: number; password: string; at: Date },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO subscription_secrets (subscription_id, version, password, created_at) VALUES ($1, $2, $3, $4)`,
      [secret.subscriptionId, secret.version, secret.password, secret.at],
    );
  }

  /** The password to apply at the streaming service: the newest one written; null when none waits. */
  async newest(
    subscriptionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ version: number; password: string } | null> {
    const rows: Array<{ version: number; password: string }> = await manager.query(
      `SELECT version, password FROM subscription_secrets WHERE subscription_id = $1 ORDER BY version DESC LIMIT 1`,
      [subscriptionId],
    );
    return rows[0] ?? null;
  }

  /** Forgets the passwords up to `version` once the streaming service has the one of that version. */
  async forgetUpTo(subscriptionId: string, version: number, manager: EntityManager = this.dataSource.manager) {
    await manager.query(`DELETE FROM subscription_secrets WHERE subscription_id = $1 AND version <= $2`, [
      subscriptionId,
      version,
    ]);
  }
}
