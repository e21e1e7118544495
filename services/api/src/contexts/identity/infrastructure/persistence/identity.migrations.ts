import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The identity read models (users, notes) and the secrets kept beside the events (credentials, tokens). */
export class IdentitySchema1767225600100 implements MigrationInterface {
  name = 'IdentitySchema1767225600100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE users (
        uuid uuid PRIMARY KEY,
        email text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        role text NOT NULL,
        status text NOT NULL,
        profile_id char(8) NOT NULL CONSTRAINT users_profile_id_unique UNIQUE,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        trial_used boolean NOT NULL DEFAULT false,
        trial_rejected boolean NOT NULL DEFAULT false,
        language text NOT NULL DEFAULT 'he',
        referrer_profile_id char(8),
        balance_minor bigint NOT NULL DEFAULT 0
      )`);
    await runner.query(`CREATE UNIQUE INDEX users_email_unique ON users (lower(email))`);
    await runner.query(`CREATE INDEX users_created_at ON users (created_at)`);
    await runner.query(
      `CREATE INDEX users_referrer_profile_id ON users (referrer_profile_id) WHERE referrer_profile_id IS NOT NULL`,
    );
    await runner.query(`
      CREATE TABLE user_notes (
        id uuid PRIMARY KEY,
        user_uuid uuid NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL,
        created_by_id text NOT NULL,
        created_by_name text NOT NULL
      )`);
    await runner.query(`CREATE INDEX user_notes_user_uuid ON user_notes (user_uuid, created_at)`);
    await runner.query(`
      CREATE TABLE credentials (
        user_uuid uuid PRIMARY KEY,
        password_hash text NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE identity_tokens (
        token_hash text PRIMARY KEY,
        user_uuid uuid NOT NULL,
        purpose text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX identity_tokens_user ON identity_tokens (user_uuid, purpose)`);
    await runner.query(`
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        user_uuid uuid NOT NULL,
        family_id uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        replaced_at timestamptz,
        revoked_at timestamptz
      )`);
    await runner.query(`CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`);
    await runner.query(`CREATE INDEX refresh_tokens_user ON refresh_tokens (user_uuid)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE refresh_tokens`);
    await runner.query(`DROP TABLE identity_tokens`);
    await runner.query(`DROP TABLE credentials`);
    await runner.query(`DROP TABLE user_notes`);
    await runner.query(`DROP TABLE users`);
  }
}

/**
 * Session versions (docs/adr/0015-session-versions-and-sign-in-limits.md): a password change, reset or staff-set
 * password moves the user's version on, and access and refresh tokens of an older version stop working.
 */
export class IdentitySessionVersions1767300001515 implements MigrationInterface {
  name = 'IdentitySessionVersions1767300001515';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE credentials ADD COLUMN session_version integer NOT NULL DEFAULT 0`);
    await runner.query(`ALTER TABLE refresh_tokens ADD COLUMN session_version integer NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE refresh_tokens DROP COLUMN session_version`);
    await runner.query(`ALTER TABLE credentials DROP COLUMN session_version`);
  }
}

/**
 * `users.balance_minor` was a copy of the ledger's user balances that the ledger wrote into identity's table. Each
 * context now owns its tables: the `User` payload takes the balance from the ledger through the `UserBalances` port
 * (ADR 0013), and nothing reads the column. The ledger's `account_balances` holds the same values, so dropping it
 * loses nothing; `down` brings the column back at zero, and `kupa projections rebuild` cannot refill it any more.
 */
export class DropUsersBalance1767400000100 implements MigrationInterface {
  name = 'DropUsersBalance1767400000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE users DROP COLUMN balance_minor`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE users ADD COLUMN balance_minor bigint NOT NULL DEFAULT 0`);
  }
}

/**
 * Two-factor sign-in for staff (docs/adr/0018-staff-two-factor-sign-in.md): the authenticator secret, encrypted, with
 * the last time-step a code was accepted for (replays of the same code are refused), and the hashed recovery codes.
 * `users.two_factor_enabled` is the read model's flag, kept by the users projection from the events.
 */
export class TwoFactorSchema1767500000100 implements MigrationInterface {
  name = 'TwoFactorSchema1767500000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE users ADD COLUMN two_factor_enabled boolean NOT NULL DEFAULT false`);
    await runner.query(`
      CREATE TABLE two_factor_secrets (
        user_uuid uuid PRIMARY KEY,
        secret_ciphertext text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE')),
        last_used_step bigint,
        created_at timestamptz NOT NULL,
        activated_at timestamptz
      )`);
    await runner.query(`
      CREATE TABLE two_factor_recovery_codes (
        id bigserial PRIMARY KEY,
        user_uuid uuid NOT NULL,
        salt text NOT NULL,
        code_hash text NOT NULL,
        used_at timestamptz
      )`);
    await runner.query(`CREATE INDEX two_factor_recovery_codes_user ON two_factor_recovery_codes (user_uuid)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE two_factor_recovery_codes`);
    await runner.query(`DROP TABLE two_factor_secrets`);
    await runner.query(`ALTER TABLE users DROP COLUMN two_factor_enabled`);
  }
}

/**
 * The API processes keep the guard's view of each signed-in user in memory (docs/adr/0046-actor-cache.md). These
 * triggers say when a cached view is out of date, whatever wrote the change: a `NOTIFY` on `kupa_actor_changed` with
 * the user's uuid when the columns the guard reads change or the row goes, and `*` when a table is truncated.
 * PostgreSQL delivers a notification when the writing transaction commits, and not at all if it rolls back.
 */
export class ActorChangeNotifications1768200000100 implements MigrationInterface {
  name = 'ActorChangeNotifications1768200000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION kupa_actor_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_LEVEL = 'STATEMENT' THEN
          PERFORM pg_notify('kupa_actor_changed', '*');
        ELSIF TG_TABLE_NAME = 'users' THEN
          PERFORM pg_notify('kupa_actor_changed', OLD.uuid::text);
        ELSIF TG_OP = 'INSERT' THEN
          PERFORM pg_notify('kupa_actor_changed', NEW.user_uuid::text);
        ELSE
          PERFORM pg_notify('kupa_actor_changed', OLD.user_uuid::text);
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER users_actor_changed AFTER UPDATE OF email, role, status, first_name, last_name ON users
        FOR EACH ROW
        WHEN ((OLD.email, OLD.role, OLD.status, OLD.first_name, OLD.last_name)
              IS DISTINCT FROM (NEW.email, NEW.role, NEW.status, NEW.first_name, NEW.last_name))
        EXECUTE FUNCTION kupa_actor_changed()`);
    await runner.query(
      `CREATE TRIGGER users_actor_deleted AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION kupa_actor_changed()`,
    );
    await runner.query(
      `CREATE TRIGGER users_actor_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION kupa_actor_changed()`,
    );
    await runner.query(`
      CREATE TRIGGER credentials_actor_changed AFTER INSERT OR DELETE OR UPDATE OF session_version ON credentials
        FOR EACH ROW EXECUTE FUNCTION kupa_actor_changed()`);
    await runner.query(
      `CREATE TRIGGER credentials_actor_truncated AFTER TRUNCATE ON credentials FOR EACH STATEMENT EXECUTE FUNCTION kupa_actor_changed()`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER credentials_actor_truncated ON credentials`);
    await runner.query(`DROP TRIGGER credentials_actor_changed ON credentials`);
    await runner.query(`DROP TRIGGER users_actor_truncated ON users`);
    await runner.query(`DROP TRIGGER users_actor_deleted ON users`);
    await runner.query(`DROP TRIGGER users_actor_changed ON users`);
    await runner.query(`DROP FUNCTION kupa_actor_changed()`);
  }
}

/**
 * Sessions end (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md). Each refresh token carries when its
 * session (family) started, for the absolute lifetime, and whether it was opened with a second factor, which staff
 * need on every refresh under `STAFF_2FA_REQUIRED`. Tokens already issued take their family's first token's time and
 * count as opened without a second factor. Revoking a family tells the actor caches on `kupa_actor_changed`: the
 * guard's view of a user lists the sessions ended within an access token's lifetime, so their access tokens stop at
 * once; the partial index serves that list.
 */
export class SessionLifetimes1768400005600 implements MigrationInterface {
  name = 'SessionLifetimes1768400005600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE refresh_tokens ADD COLUMN family_started_at timestamptz`);
    await runner.query(`
      UPDATE refresh_tokens t SET family_started_at = f.started_at
      FROM (SELECT family_id, min(created_at) AS started_at FROM refresh_tokens GROUP BY family_id) f
      WHERE f.family_id = t.family_id`);
    await runner.query(`ALTER TABLE refresh_tokens ALTER COLUMN family_started_at SET NOT NULL`);
    await runner.query(`ALTER TABLE refresh_tokens ADD COLUMN second_factor boolean NOT NULL DEFAULT false`);
    await runner.query(
      `CREATE INDEX refresh_tokens_revoked ON refresh_tokens (user_uuid, revoked_at) WHERE revoked_at IS NOT NULL`,
    );
    await runner.query(`
      CREATE TRIGGER refresh_tokens_actor_changed AFTER UPDATE OF revoked_at ON refresh_tokens
        FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
        EXECUTE FUNCTION kupa_actor_changed()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER refresh_tokens_actor_changed ON refresh_tokens`);
    await runner.query(`DROP INDEX refresh_tokens_revoked`);
    await runner.query(`ALTER TABLE refresh_tokens DROP COLUMN second_factor`);
    await runner.query(`ALTER TABLE refresh_tokens DROP COLUMN family_started_at`);
  }
}

/**
 * Who ended a session (docs/adr/0079-say-what-happened-and-keep-what-was-typed.md): `staff` when a staff member set
 * the password or reset two-factor sign-in, so that the refresh can say so; null for every other end (the owner's
 * own change, logout, theft, policy), which keeps saying `error.session.ended`.
 */
export class RefreshTokensRevokedBy1768600007900 implements MigrationInterface {
  name = 'RefreshTokensRevokedBy1768600007900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE refresh_tokens ADD COLUMN revoked_by text`);
    await runner.query(
      `ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_revoked_by CHECK (revoked_by IS NULL OR revoked_by = 'staff')`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE refresh_tokens DROP COLUMN revoked_by`);
  }
}

/**
 * A change of e-mail's link (docs/adr/0100-change-of-e-mail.md) is bound to the address it was mailed to: the token
 * row keeps that address, so a link can only ever move the account to the address that received it.
 */
export class IdentityTokensEmail1770800010000 implements MigrationInterface {
  name = 'IdentityTokensEmail1770800010000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE identity_tokens ADD COLUMN email text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE identity_tokens DROP COLUMN email`);
  }
}
