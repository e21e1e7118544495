import { Inject, Injectable } from '@nestjs/common';
import { isStaffRole, type StaffSessionEndCode, type UserRole } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, type SessionLimits } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import { firstRows } from '../persistence/query-results';
import { hashSecretToken, newSecretToken } from '../../../../platform/crypto';
import { ActorCache } from '../access/actor-cache';

/**
 * How long a replaced token still opens its session (ADR 0009). Two tabs of one app refresh at the same moment with
 * the same cookie; the one that loses the race presents a token the other just replaced. Within this window that is
 * concurrency, not theft: it gets an access token but no new refresh token. Later, it is reuse and ends the family.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

/**
 * The session an access token is signed for: its refresh family (`sid`), the user's session version (`sv`) at
 * issue, and whether the session was opened with a second factor (`tf`). The guard refuses a version older than
 * the user's current one (ADR 0015), a session ended since, and a staff token without a second factor when staff
 * must have one (ADR 0056).
 */
export interface SessionRef {
  familyId: string;
  sessionVersion: number;
  secondFactor: boolean;
}

/** A refresh answer: the user, its session, and the token that replaces the presented one (none for a duplicate). */
export interface Rotation {
  userUuid: string;
  session: SessionRef;
  issued: IssuedRefreshToken | null;
}

/** Why a presented refresh token opens no session; each is a catalogue code the UIs explain (ADR 0056). */
type Refusal =
  | StaffSessionEndCode
  | 'error.session.expired'
  | 'error.session.ended'
  | 'error.session.ended.by.staff'
  | 'error.session.idle'
  | 'error.session.lifetime.reached'
  | 'error.session.second.factor.required';

/** `endedFor`: the user whose session the refusal revoked, whose cached view must go. */
type RotationOutcome = { kind: 'refused'; code: Refusal; endedFor?: string } | ({ kind: 'rotated' } & Rotation);

interface RefreshTokenRow {
  user_uuid: string;
  family_id: string;
  family_started_at: Date;
  second_factor: boolean;
  created_at: Date;
  expires_at: Date;
  replaced_at: Date | null;
  revoked_at: Date | null;
  revoked_by: 'staff' | null;
  end_code: StaffSessionEndCode | null;
  session_version: number;
  current_session_version: number;
  role: UserRole | null;
}

/**
 * Opaque refresh tokens in families (docs/product.md, Sessions): sign-in starts a family, every refresh replaces the
 * presented token, and a replaced token presented again after `REFRESH_REUSE_GRACE_MS` is taken as stolen, which
 * revokes the whole family. A family ends by policy too: at its absolute lifetime, after its idle timeout (both by
 * the role of its user, `AppConfig.sessionPolicy`), and, for staff under `STAFF_2FA_REQUIRED`, when it was opened
 * without a second factor.
 */
@Injectable()
export class RefreshTokens {
  constructor(
    private readonly dataSource: DataSource,
    private readonly actors: ActorCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts a session (sign-in) under the user's current session version. */
  async startFamily(
    user: { uuid: string; role: UserRole },
    now: Date,
    secondFactor: boolean,
  ): Promise<IssuedRefreshToken & SessionRef> {
    const rows: Array<{ session_version: number }> = await this.dataSource.query(
      `SELECT session_version FROM credentials WHERE user_uuid = $1`,
      [user.uuid],
    );
    const session: SessionRef = {
      familyId: randomUUID(),
      sessionVersion: rows[0]?.session_version ?? 0,
      secondFactor,
    };
    const issued = await this.insert(this.dataSource.manager, user, session, now, now);
    return { ...issued, ...session };
  }

  /**
   * Replaces a live token with a new one of its family. A token replaced moments ago keeps the session without a
   * replacement of its own (the request that replaced it carries the successor); a replaced token presented later
   * ends the session. So does a token of an older session version than the user's: a rotation that raced a password
   * change may have slipped a successor past the revocation, and the version still stops it. The limits are those
   * configured now, so a deployment that shortens them ends the sessions already longer at their next refresh.
   */
  async rotate(token: string, now: Date): Promise<Rotation> {
    const outcome = await this.dataSource.transaction(async (manager): Promise<RotationOutcome> => {
      const rows: RefreshTokenRow[] = await manager.query(
        `SELECT t.user_uuid, t.family_id, t.family_started_at, t.second_factor, t.created_at, t.expires_at,
                t.replaced_at, t.revoked_at, t.revoked_by, t.session_version, s.end_code,
                coalesce(c.session_version, 0) AS current_session_version, u.role
         FROM refresh_tokens t
           LEFT JOIN credentials c ON c.user_uuid = t.user_uuid
           LEFT JOIN users u ON u.uuid = t.user_uuid
           LEFT JOIN user_sessions s ON s.family_id = t.family_id
         WHERE t.token_hash = $1 FOR UPDATE OF t`,
        [hashSecretToken(token)],
      );
      const row = rows[0];
      if (!row || row.role === null) return { kind: 'refused', code: 'error.session.expired' };
      if (this.config.staff2faRequired && isStaffRole(row.role) && !row.second_factor) {
        // Opened before the policy (or before a promotion to staff): it must not yield a staff token ever again. Every
        // later refresh says so too, not "ended": a console that refreshes twice would otherwise show the second
        // answer and never tell its staff member to sign in with a code.
        if (row.revoked_at !== null) return { kind: 'refused', code: 'error.session.second.factor.required' };
        await this.revokeFamily(manager, row.family_id, now);
        return { kind: 'refused', code: 'error.session.second.factor.required', endedFor: row.user_uuid };
      }
      // A session staff ended says so (a password they set, a two-factor reset), and nothing more: not who, not why.
      if (row.revoked_at !== null || row.session_version !== row.current_session_version)
        return {
          kind: 'refused',
          code: row.revoked_by === 'staff' ? (row.end_code ?? 'error.session.ended.by.staff') : 'error.session.ended',
        };
      const limits = this.limitsFor(row.role);
      if (now.getTime() >= row.family_started_at.getTime() + limits.maxMs)
        return { kind: 'refused', code: 'error.session.lifetime.reached' };
      const lastUsed = row.replaced_at ?? row.created_at;
      if (now.getTime() >= Math.min(lastUsed.getTime() + limits.idleMs, row.expires_at.getTime()))
        return { kind: 'refused', code: 'error.session.idle' };
      const session: SessionRef = {
        familyId: row.family_id,
        sessionVersion: row.session_version,
        secondFactor: row.second_factor,
      };
      if (row.replaced_at !== null) {
        if (now.getTime() - row.replaced_at.getTime() < REFRESH_REUSE_GRACE_MS) {
          return { kind: 'rotated', userUuid: row.user_uuid, session, issued: null };
        }
        await this.revokeFamily(manager, row.family_id, now);
        return { kind: 'refused', code: 'error.session.ended', endedFor: row.user_uuid };
      }
      await manager.query(`UPDATE refresh_tokens SET replaced_at = $2 WHERE token_hash = $1`, [
        hashSecretToken(token),
        now,
      ]);
      const user = { uuid: row.user_uuid, role: row.role };
      return {
        kind: 'rotated',
        userUuid: row.user_uuid,
        session,
        issued: await this.insert(manager, user, session, row.family_started_at, now),
      };
    });
    // A revocation above is committed before the refusal, so the refusal cannot undo it; the user's access tokens
    // of that family stop at their next request (the guard's view lists ended sessions).
    if (outcome.kind !== 'rotated') {
      if (outcome.endedFor !== undefined) this.actors.forget(outcome.endedFor);
      throw new ApiError(outcome.code);
    }
    return { userUuid: outcome.userUuid, session: outcome.session, issued: outcome.issued };
  }

  /**
   * Ends the session the token belongs to (logout); unknown tokens are ignored. The access tokens of that session
   * stop at once: the guard's view of the user lists the sessions ended within an access token's lifetime, and it is
   * dropped here after the commit (and in every other process through the revocation's notification).
   */
  async revokeFamilyOf(token: string, now: Date): Promise<void> {
    // An UPDATE answers `[rows, count]`: read as the rows, it named no user and the view stayed until the
    // notification dropped it, so a request that came before the notification still passed with the ended session.
    const rows = firstRows(
      await this.dataSource.query(
        `UPDATE refresh_tokens SET revoked_at = $2
         WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)
         RETURNING user_uuid`,
        [hashSecretToken(token), now],
      ),
    ) as Array<{ user_uuid: string }>;
    if (rows[0]) this.actors.forget(rows[0].user_uuid);
  }

  /**
   * Ends the user's sessions when the password or the second factor changes, inside the transaction that stores the
   * change. The session version moves on, so every access token signed before is refused at its next request; every
   * refresh family is revoked except `keep.familyId` (the session that made the change itself), whose live tokens
   * move to the new version so that its next refresh signs a valid access token. `keep.secondFactor` marks that
   * session as opened with a second factor (it just proved one by turning two-factor sign-in on). A rotation running
   * at the same moment may insert a successor this revocation does not see; it carries the old version and is
   * refused all the same. `endedBy: 'staff'` (a password set or a two-factor reset by staff) makes the refresh of
   * those sessions answer `error.session.ended.by.staff`, so the sign-in page can say why.
   */
  async endSessions(
    manager: EntityManager,
    userUuid: string,
    now: Date,
    keep: { familyId: string; secondFactor?: boolean } | null,
    endedBy: 'owner' | 'staff' = 'owner',
  ): Promise<void> {
    // The guard's view goes when the change commits: dropped now, a request of this user that read the old state
    // meanwhile would keep it past the commit.
    this.actors.forgetOnCommit(manager, userUuid);
    await manager.query(`UPDATE credentials SET session_version = session_version + 1 WHERE user_uuid = $1`, [
      userUuid,
    ]);
    await manager.query(
      `UPDATE refresh_tokens SET revoked_at = $2, revoked_by = $4
       WHERE user_uuid = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3::uuid`,
      [userUuid, now, keep?.familyId ?? null, endedBy === 'staff' ? 'staff' : null],
    );
    if (keep === null) return;
    await manager.query(
      `UPDATE refresh_tokens
       SET session_version = (SELECT session_version FROM credentials WHERE user_uuid = $1),
           second_factor = second_factor OR $3
       WHERE user_uuid = $1 AND family_id = $2 AND revoked_at IS NULL`,
      [userUuid, keep.familyId, keep.secondFactor === true],
    );
  }

  /**
   * Ends one session of the user (ADR 0099): its owner from the sessions list, or anyone holding the signed link of
   * its new-device notice (`userUuid` null). Answers the user whose session ended, or null when no live session had
   * that id. Its access tokens stop at once: the guard's view is dropped here and, in every other process, by the
   * revocation's notification.
   */
  async endSession(userUuid: string | null, familyId: string, now: Date): Promise<string | null> {
    const rows = firstRows(
      await this.dataSource.query(
        `UPDATE refresh_tokens SET revoked_at = $3
         WHERE family_id = $2 AND ($1::uuid IS NULL OR user_uuid = $1::uuid) AND revoked_at IS NULL
           AND (replaced_at IS NULL OR expires_at > $3)
         RETURNING user_uuid`,
        [userUuid, familyId, now],
      ),
    ) as Array<{ user_uuid: string }>;
    if (!rows[0]) return null;
    this.actors.forget(rows[0].user_uuid);
    return rows[0].user_uuid;
  }

  /** Ends every session of the user but `keepFamilyId` (the caller's own); answers how many ended. */
  async endOtherSessions(userUuid: string, keepFamilyId: string | null, now: Date): Promise<number> {
    const rows = firstRows(
      await this.dataSource.query(
        `UPDATE refresh_tokens SET revoked_at = $2
         WHERE user_uuid = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3::uuid
         RETURNING family_id`,
        [userUuid, now, keepFamilyId],
      ),
    ) as Array<{ family_id: string }>;
    this.actors.forget(userUuid);
    return new Set(rows.map((row) => row.family_id)).size;
  }

  /**
   * Ends every session of the user for staff (ADR 0099), inside the transaction that records why; answers the
   * families that were still open, whose owner is told the reason at the next request. The view goes on commit.
   */
  async endSessionsForStaff(manager: EntityManager, userUuid: string, now: Date): Promise<string[]> {
    this.actors.forgetOnCommit(manager, userUuid);
    const rows = firstRows(
      await manager.query(
        `UPDATE refresh_tokens SET revoked_at = $2, revoked_by = 'staff'
         WHERE user_uuid = $1 AND revoked_at IS NULL AND expires_at > $2
         RETURNING family_id`,
        [userUuid, now],
      ),
    ) as Array<{ family_id: string }>;
    return [...new Set(rows.map((row) => row.family_id))];
  }

  /** How many live sessions the user has now (what staff are about to end). */
  async liveSessionCount(
    userUuid: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    const rows: Array<{ count: number }> = await manager.query(
      `SELECT count(DISTINCT family_id)::int AS count FROM refresh_tokens
       WHERE user_uuid = $1 AND revoked_at IS NULL AND replaced_at IS NULL AND expires_at > $2`,
      [userUuid, now],
    );
    return rows[0]?.count ?? 0;
  }

  /** Revokes every refresh family of a user (a blocked user's refresh); access tokens are stopped by the status. */
  async revokeAllOf(userUuid: string, now: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE user_uuid = $1 AND revoked_at IS NULL`, [
      userUuid,
      now,
    ]);
  }

  private limitsFor(role: UserRole): SessionLimits {
    return isStaffRole(role) ? this.config.sessionPolicy.staff : this.config.sessionPolicy.client;
  }

  private async revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<void> {
    await manager.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`, [
      familyId,
      now,
    ]);
  }

  /**
   * A token lives until the session's idle timeout or its absolute end, whichever comes first; the cookie expires
   * with it, so a browser forgets a session the server would refuse.
   */
  private async insert(
    manager: EntityManager,
    user: { uuid: string; role: UserRole },
    session: SessionRef,
    familyStartedAt: Date,
    now: Date,
  ): Promise<IssuedRefreshToken> {
    const token = newSecretToken();
    const limits = this.limitsFor(user.role);
    const expiresAt = new Date(Math.min(now.getTime() + limits.idleMs, familyStartedAt.getTime() + limits.maxMs));
    await manager.query(
      `INSERT INTO refresh_tokens
         (token_hash, user_uuid, family_id, expires_at, created_at, session_version, family_started_at, second_factor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hashSecretToken(token),
        user.uuid,
        session.familyId,
        expiresAt,
        now,
        session.sessionVersion,
        familyStartedAt,
        session.secondFactor,
      ],
    );
    return { token, expiresAt };
  }
}
