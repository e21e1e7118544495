import { Inject, Injectable } from '@nestjs/common';
import { checkUuid, minorToAmount, STAFF_ROLES, type User, type UserReferrer } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import { ReferralStandings } from '../../application/referral-standings.port';
import { UserBalances } from '../../application/user-balances.port';
import { fullNameOf, toUserView, USER_COLUMNS, type UserRow, type UserView } from './user-view';

/**
 * What a payload holds beyond what its owner sees: `forStaff` adds who referred the account (ADR 0078), which a
 * customer's own record leaves out.
 */
export interface PayloadOptions {
  forStaff?: boolean;
}

/** An actor's account, whether its step-up is on, and another account, as `UserReader.findActorAndOther` reads them. */
export interface ActorAndOther {
  actor: UserView | null;
  actorStepUpOn: boolean;
  other: UserView | null;
}

/**
 * Reads of the users read model, and the `User` payload (docs/api.md, Identity) built from it with the balances the
 * ledger reports through the `UserBalances` port.
 */
@Injectable()
export class UserReader {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly balances: UserBalances,
    private readonly referrals: ReferralStandings,
  ) {}

  findByUuid(userUuid: string): Promise<UserView | null> {
    return this.findOne('u.uuid = $1', userUuid);
  }

  /**
   * The accounts among `userUuids` that exist, in one read. Ids that are not canonical uuids name no account and are
   * skipped (the activity log may hold other ids where a user id could be).
   */
  async findByUuids(userUuids: readonly string[]): Promise<UserView[]> {
    const uuids = [...new Set(userUuids)].filter((uuid) => checkUuid(uuid) === null);
    if (uuids.length === 0) return [];
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users u WHERE u.uuid = ANY($1::uuid[])`,
      [uuids],
    );
    return rows.map(toUserView);
  }

  /** The active staff accounts (ADMIN, MANAGER): who may receive staff alerts (ADR 0106). A handful of rows. */
  async activeStaffUuids(): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await this.dataSource.query(
      `SELECT u.uuid FROM users u WHERE u.role = ANY($1::text[]) AND u.status = 'ACTIVE' ORDER BY u.uuid`,
      [[...STAFF_ROLES]],
    );
    return rows.map((row) => row.uuid);
  }

  /** Without case, as the unique index on `lower(email)` compares addresses. */
  findByEmail(email: string): Promise<UserView | null> {
    return this.findOne('lower(u.email) = lower($1)', email);
  }

  findByProfileId(profileId: string): Promise<UserView | null> {
    return this.findOne('u.profile_id = $1', profileId);
  }

  private async findOne(condition: string, value: string): Promise<UserView | null> {
    const rows: UserRow[] = await this.dataSource.query(`SELECT ${USER_COLUMNS} FROM users u WHERE ${condition}`, [
      value,
    ]);
    return rows[0] ? toUserView(rows[0]) : null;
  }

  /**
   * An actor's account and another one named by profile ID or e-mail (any case), in one read, with whether the
   * actor's two-factor step-up is on (an `ACTIVE` secret, what `TwoFactorStepUp` asks): a transfer's sender, its
   * recipient and its gate (docs/adr/0129). The other is the actor's own account when it names it.
   */
  async findActorAndOther(actorUuid: string, other: { profileId: string } | { email: string }): Promise<ActorAndOther> {
    const otherCondition = 'profileId' in other ? 'u.profile_id = $2' : 'lower(u.email) = lower($2)';
    const rows: Array<UserRow & { is_actor: boolean; is_other: boolean; step_up_on: boolean }> =
      await this.dataSource.query(
        `SELECT ${USER_COLUMNS}, u.uuid = $1 AS is_actor, ${otherCondition} AS is_other,
                u.uuid = $1 AND EXISTS (SELECT 1 FROM two_factor_secrets s
                                         WHERE s.user_uuid = u.uuid AND s.status = 'ACTIVE') AS step_up_on
           FROM users u WHERE u.uuid = $1 OR ${otherCondition}`,
        [actorUuid, 'profileId' in other ? other.profileId : other.email],
      );
    const actor = rows.find((row) => row.is_actor);
    const found = rows.find((row) => row.is_other);
    return {
      actor: actor ? toUserView(actor) : null,
      actorStepUpOn: actor?.step_up_on ?? false,
      other: found ? toUserView(found) : null,
    };
  }

  /**
   * An account and the uuids of the users who signed up with its profile ID as their referrer, in one read: a buyer
   * and whom its referral discount counts (docs/adr/0137), the two reads of `findByUuid` and `referredUserUuidsOf`.
   */
  async findWithReferred(userUuid: string): Promise<{ user: UserView; referredUuids: string[] } | null> {
    const rows: Array<UserRow & { referred: string[] }> = await this.dataSource.query(
      `SELECT ${USER_COLUMNS},
              ARRAY(SELECT r.uuid::text FROM users r WHERE r.referrer_profile_id = u.profile_id) AS referred
         FROM users u WHERE u.uuid = $1`,
      [userUuid],
    );
    return rows[0] ? { user: toUserView(rows[0]), referredUuids: rows[0].referred } : null;
  }

  /** The uuids of the users who signed up with `profileId` as their referrer. */
  async referredUserUuidsOf(profileId: string): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await this.dataSource.query(
      'SELECT uuid FROM users WHERE referrer_profile_id = $1',
      [profileId],
    );
    return rows.map((row) => row.uuid);
  }

  /**
   * The `User` payload of one account, for the calls that answer with it; an account the read model does not hold
   * answers 404, like an unknown id in the path.
   */
  async getUser(userUuid: string, options: PayloadOptions = {}): Promise<User> {
    const view = await this.findByUuid(userUuid);
    if (!view) throw new ApiError('error.user.not.found');
    return this.toUser(view, options);
  }

  async toUser(view: UserView, options: PayloadOptions = {}): Promise<User> {
    const [user] = await this.toUsers([view], options);
    return user;
  }

  /**
   * Builds payloads for several rows with one query for their referred users, one for how those referrers stand
   * (through the `ReferralStandings` port) and one for their balances; for staff, one more for who referred them.
   */
  async toUsers(views: UserView[], options: PayloadOptions = {}): Promise<User[]> {
    if (views.length === 0) return [];
    const profileIds = views.map((view) => view.profileId);
    const rows: Array<{ referrer: string; referred: string[] }> = await this.dataSource.query(
      `SELECT referrer_profile_id AS referrer, array_agg(uuid::text) AS referred FROM users
        WHERE referrer_profile_id = ANY($1) GROUP BY referrer_profile_id`,
      [profileIds],
    );
    const referred = new Map(rows.map((row) => [row.referrer, row.referred]));
    const standings = await this.referrals.standingsOf(referred);
    const balances = await this.balances.balancesOf(views.map((view) => view.uuid));
    const referrers = options.forStaff ? await this.referrersOf(views) : null;
    return views.map((view) => ({
      userUuid: view.uuid,
      email: view.email,
      firstName: view.firstName,
      lastName: view.lastName,
      fullName: fullNameOf(view),
      role: view.role,
      status: view.status,
      balance: minorToAmount(balances.get(view.uuid) ?? 0),
      profileId: view.profileId,
      userCreatedAt: view.createdAt.toISOString(),
      trialUsed: view.trialUsed,
      trialRejected: view.trialRejected,
      twoFactorEnabled: view.twoFactorEnabled,
      language: view.language,
      referrals: {
        profileId: view.profileId,
        link: `${this.config.publicUrl}/sign-up?ref=${view.profileId}`,
        totalReferrals: referred.get(view.profileId)?.length ?? 0,
        activeReferrals: standings.get(view.profileId)?.activeReferrals ?? 0,
        discountPercent: standings.get(view.profileId)?.discountPercent ?? 0,
      },
      ...(referrers ? { referrer: (view.referrerProfileId && referrers.get(view.referrerProfileId)) || null } : {}),
    }));
  }

  /** The accounts whose profile IDs `views` signed up with, by profile ID, in one read. */
  private async referrersOf(views: readonly UserView[]): Promise<ReadonlyMap<string, UserReferrer>> {
    const profileIds = [...new Set(views.flatMap((view) => (view.referrerProfileId ? [view.referrerProfileId] : [])))];
    if (profileIds.length === 0) return new Map();
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users u WHERE u.profile_id = ANY($1)`,
      [profileIds],
    );
    return new Map(
      rows.map(toUserView).map((referrer) => [
        referrer.profileId,
        {
          userUuid: referrer.uuid,
          profileId: referrer.profileId,
          fullName: fullNameOf(referrer),
          email: referrer.email,
        },
      ]),
    );
  }
}
