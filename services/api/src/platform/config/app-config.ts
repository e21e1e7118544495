import {
  type AmbassadorBonusTier,
  CASHIER_DEFAULTS,
  checkEmail,
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  type Language,
  LANGUAGES,
  LIMITS,
  parseAmountToMinor,
  type ReferralDiscountTier,
  SESSION_POLICY_DEFAULTS,
  tierTableProblem,
} from '@kupa/proto';
import type { LoggerService } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

/** At most `limit` counted requests per fixed window of `windowMs`. */
export interface RateLimitSetting {
  limit: number;
  windowMs: number;
}

/**
 * The configurable request limits (docs/adr/0015-session-versions-and-sign-in-limits.md explains the defaults). Each
 * is read from a `RATE_LIMIT_…` variable written as `<count>/<window>`, the window in s, m, h or d: `10/15m`.
 */
export interface RateLimitSettings {
  signInFailuresPerAccountAndAddress: RateLimitSetting;
  signInFailuresPerAddress: RateLimitSetting;
  signInFailuresPerAccount: RateLimitSetting;
  signUpsPerAddress: RateLimitSetting;
  mailRequestsPerAddress: RateLimitSetting;
  /** Transfer recipient look-ups (and transfers to unknown recipients) per signed-in account, and per address. */
  recipientLookupsPerAccount: RateLimitSetting;
  recipientLookupsPerAddress: RateLimitSetting;
  /** Wrong voucher codes per signed-in account, and per address (docs/adr/0089-prepaid-vouchers.md). */
  voucherMissesPerAccount: RateLimitSetting;
  voucherMissesPerAddress: RateLimitSetting;
  /** Wrong or reused step-up codes per signed-in account, across every step-up call (docs/adr/0098). */
  stepUpFailuresPerAccount: RateLimitSetting;
}

/**
 * Where the Kafka fan-out publishes every event (docs/adr/0035-kafka-fan-out.md); absent when `KAFKA_BROKERS` is
 * unset, and then nothing is published.
 */
export interface KafkaSettings {
  /** `host:port` of each bootstrap broker. */
  brokers: readonly string[];
  clientId: string;
  /** Put before each stream category to name its topic: `kupa.` + `wallet` → `kupa.wallet`. */
  topicPrefix: string;
  /**
   * The partitions and replicas of a topic the publisher creates (docs/adr/0062-kafka-topics-and-broker.md): as many
   * partitions as a consumer group may ever want members, since adding some later moves streams between them.
   */
  topicPartitions: number;
  topicReplicationFactor: number;
}

/**
 * What a process runs (docs/adr/0036-processes-and-roles.md): `api` serves HTTP only, `worker` runs the processors,
 * sweeps, the mail dispatcher and the provisioning jobs without HTTP, `all` (the default) does both in one process.
 */
export const PROCESS_ROLES = ['api', 'worker', 'all'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/**
 * Typed configuration from the environment (README.md, Configuration). Every variable is optional: unset values fall
 * back to the embedded defaults, so `npm start` works on a fresh clone.
 */
/**
 * Which proxies may name the client in `X-Forwarded-For` (Express's `trust proxy`, docs/adr/0037-deployment.md):
 * `false` none, a number of hops in front of the server, or addresses, subnets and Express's named ranges.
 */
/** How long one kind of session may last: in all, and between two refreshes. */
export interface SessionLimits {
  maxMs: number;
  idleMs: number;
}

/**
 * Session lifetimes by who signed in (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md): staff
 * (ADMIN, MANAGER) and everyone else.
 */
export interface SessionPolicy {
  staff: SessionLimits;
  client: SessionLimits;
}

export type TrustProxySetting = false | number | readonly string[];

/**
 * The cost of one argon2id password hash. Not read from the environment: every server and command line hashes at
 * `PASSWORD_HASH_COST`; only code that builds its own configuration (the API specs' test app) can lower it.
 */
export interface PasswordHashCost {
  memoryKib: number;
  passes: number;
  lanes: number;
}

/** argon2's own defaults (64 MiB, 3 passes, 4 lanes), above OWASP's argon2id minimum of 19 MiB and 2 passes. */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryKib: 65_536, passes: 3, lanes: 4 };

/** Who the client paid: the operator's business details as the receipts print them. */
export interface OperatorDetails {
  name: string;
  address: string | null;
  taxId: string | null;
}

export interface AppConfig {
  /** `KUPA_ROLE`: what this process runs. */
  role: ProcessRole;
  /**
   * `WEB_CONCURRENCY`: how many API processes one start forks, sharing the port (node:cluster); 1 runs no cluster.
   * The processors still run once, in one worker process beside them.
   */
  webConcurrency: number;
  /**
   * `COMMAND_GROUPING`: concurrent groupable commands of one process (balance transfers) decided and appended
   * together in one transaction (docs/adr/0130-group-commit.md). On by default (ADR 0138); `0` runs every command
   * alone.
   */
  commandGrouping: boolean;
  port: number;
  /** Decides `req.ip`: the address the rate limits count and the activity log records (`TRUST_PROXY`). */
  trustProxy: TrustProxySetting;
  publicUrl: string;
  databaseUrl: string | null;
  /**
   * `DATABASE_REPLICA_URL`: a PostgreSQL streaming replica of `DATABASE_URL` that serves the heavy reads (searches,
   * the CSV export, the dashboard, statements, account history, the activity log); null sends everything to the
   * primary (docs/adr/0113-read-replicas.md).
   */
  databaseReplicaUrl: string | null;
  /** `DATABASE_REPLICA_MAX_LAG_SECONDS`: a replica further behind than this serves nothing until it catches up. */
  replicaMaxLagSeconds: number;
  /**
   * `DATABASE_CONNECT_TIMEOUT_MS`: the longest a statement waits for one of the pool's connections (a free one, or a
   * new one being made); past it the request is answered 503 `error.service.unavailable` instead of waiting on
   * (docs/adr/0127-database-unavailable-is-503.md).
   */
  databaseConnectTimeoutMs: number;
  dataDir: string;
  jwtSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * `OPERATOR_NAME`, `OPERATOR_ADDRESS`, `OPERATOR_TAX_ID`: the business that issues the receipts, printed in every
   * receipt's footer (docs/product.md, Receipts). Unset, the name is "Kupa" and the address and tax id are left out.
   */
  operator: OperatorDetails;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripeApiBase: string | null;
  cashierUrl: string | null;
  cashierApiKey: string | null;
  cashierIpnSecret: string | null;
  /** The smallest and largest crypto deposit, in cents (`CASHIER_DEPOSIT_MIN`, `CASHIER_DEPOSIT_MAX`, dollars). */
  cashierDepositMinMinor: number;
  cashierDepositMaxMinor: number;
  /** A crypto deposit still PENDING this long after its invoice opened is re-checked and becomes TIMEOUT. */
  cashierPendingTimeoutMinutes: number;
  /**
   * A successful deposit of at least this many cents (`LARGE_DEPOSIT_MIN`, dollars; 1000 by default) is listed in the
   * dashboard's queue of what needs a person (docs/product.md, Dashboard).
   */
  largeDepositMinMinor: number;
  /**
   * `STAFF_ALERT_LARGE_DEPOSIT_MINOR` (cents; 50000, $500, by default): a deposit credited of at least this much is a
   * staff alert in Telegram (ADR 0106). Lower than the dashboard's queue on purpose: an alert is cheap to ignore, a
   * queue entry asks for a click.
   */
  staffAlertLargeDepositMinor: number;
  /** How long the cashier janitor waits between passes. */
  cashierJanitorIntervalMs: number;
  /**
   * A card checkout still PENDING this long after it opened is asked about at the card provider: closed there if
   * still open, then credited if paid (a webhook was lost) or TIMEOUT.
   */
  cardPendingTimeoutMinutes: number;
  /** How long the card janitor waits between passes. */
  cardJanitorIntervalMs: number;
  /**
   * `CARD_BALANCE_PAYMENTS` (default on): the operator's one switch for card money that is not a package purchase,
   * for card providers that forbid this business (docs/adr/0082-card-top-ups.md). Off, card top-ups of the balance
   * are refused (`error.card.balance.payments.off`) and the portal hides them; card renewals from a saved card read
   * this same flag, so one setting turns both off. It takes effect only where a card provider is configured.
   */
  cardBalancePayments: boolean;
  /**
   * `RENEWAL_GRACE_DAYS`: how long after its end a recurrent subscription whose renewal could not be paid stays
   * recoverable (its account disabled, its login reserved) before it ends EXPIRED.
   */
  renewalGraceDays: number;
  /**
   * `RENEWAL_REMINDER_DAYS`: how many days before an automatic renewal (or the end of a subscription that will not
   * renew by itself) the client is reminded, largest first and each at most once per occasion.
   */
  renewalReminderDays: readonly number[];
  /**
   * `BROADCAST_MAILS_PER_MINUTE`: how many recipients of an admin's broadcast are handed to the mail outbox a minute
   * (ADR 0091), so that a broadcast to every client does not crowd out the service mails or trip the SMTP relay's
   * limits.
   */
  broadcastMailsPerMinute: number;
  /**
   * `TELEGRAM_RETENTION_DAYS`: how long Telegram messages sent or skipped stay in `telegram_outbox`, and handled
   * update ids in `telegram_updates`, before the pruning jobs delete them (README.md, Telegram).
   */
  telegramRetentionDays: number;
  /**
   * `KUPA_SANDBOX`: whether the demo and test stand-ins (the sandbox cashier, the streaming-service simulator) may
   * run where no real service is configured (docs/adr/0055-sandboxes-only-on-demand.md). On by itself only in the
   * embedded demo setup (`DATABASE_URL` unset); a real deployment turns it on only explicitly.
   */
  sandbox: boolean;
  /**
   * The streaming service's provisioning API (docs/provisioning-api.md); null runs the built-in simulator, which this
   * process serves itself under `/api/sandbox/streaming` and reaches over HTTP like a real service. Null is allowed
   * only with `sandbox`: a real deployment without it refuses to start.
   */
  provisioningUrl: string | null;
  /** The bearer token of the provisioning API; without `PROVISIONING_URL` it defaults to one kept in the data directory. */
  provisioningToken: string;
  /**
   * How a client reaches the streaming service they bought (`STREAMING_SITE_URL`, `STREAMING_IOS_APP_URL`,
   * `STREAMING_ANDROID_APP_URL`): shown, with a QR code of the site, on a subscription's detail. Null when none is
   * set: `GET /subscriptions/{id}` then leaves `connect` out and the portal shows no such section
   * (docs/adr/0077-details-people-can-read.md). The site is also published with the dictionaries, which the
   * portal's sidebar links.
   */
  streamingConnect: StreamingConnect | null;
  /** Lets tests and demos queue failures in the simulator (`PUT /api/sandbox/streaming/faults`). */
  provisioningSimulatorFaults: boolean;
  /** One call to the provisioning API is abandoned (and retried as a transient failure) after this long. */
  provisioningTimeoutMs: number;
  /**
   * How long a runner holds a provisioning job it took: its calls (two timeouts at most) and reporting the outcome.
   * A runner that dies mid-job leaves the job to another once this lapses.
   */
  provisioningLeaseMs: number;
  /** How many provisioning jobs one worker calls the service for at once (at most `PROVISIONING_CONCURRENCY_MAX`). */
  provisioningConcurrency: number;
  /** Provisioning attempts per job before a transient failure becomes a permanent one. */
  provisioningRetryAttempts: number;
  /** The first retry of a provisioning job comes after this long, doubling up to `provisioningRetryMaxMs`. */
  provisioningRetryBaseMs: number;
  provisioningRetryMaxMs: number;
  demoData: boolean;
  adminEmail: string | null;
  adminPassword: string | null;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /**
   * `LOG_FORMAT`: how log lines look (docs/adr/0074-readable-first-run.md). `auto` writes human-readable lines when
   * standard output is a terminal and JSON lines otherwise (a file, a pipe, a container's log); `pretty` and `json`
   * force one or the other.
   */
  logFormat: LogFormatSetting;
  /**
   * A processor more events than this behind the store is reported behind (`kupa_processor_behind`, a warning in the
   * log): an alert for the operator, never a reason for readiness to fail (docs/adr/0063).
   */
  processorLagAlertEvents: number;
  /** … and so is one whose oldest unhandled event is older than this. */
  processorLagAlertSeconds: number;
  /**
   * `WORKER_PORT`: where a worker process serves `/health/live`, `/health/ready` and `/metrics` (a one-process `all`
   * start serves them under `/api` instead, and opens no such port).
   */
  workerPort: number;
  /** When set, `/api/metrics` answers only `Authorization: Bearer <token>`; unset, it is open (docs/adr/0031). */
  metricsToken: string | null;
  /** How hard a password hash is to compute: always `PASSWORD_HASH_COST`, except in the API specs. */
  passwordHashCost: PasswordHashCost;
  /** Static UI bundles served beside the API; null disables serving (tests). */
  adminUiDir: string | null;
  clientUiDir: string | null;
  /** How long an idle processor or the mail dispatcher waits before looking for new work. */
  workerPollIntervalMs: number;
  /**
   * Null but in the API specs: there, this process's own commits wake the processors and the job queues (the mail
   * dispatcher, provisioning, bulk batches) at once, and those look on their own only this often instead of every
   * `workerPollIntervalMs` (docs/adr/0108-woken-background-loops-in-specs.md). Read through `queuePollIntervalMs`.
   */
  workerWokenPollIntervalMs: number | null;
  /** The first retry of a mail that SMTP refused comes after this long, doubling up to `mailRetryMaxMs`. */
  mailRetryBaseMs: number;
  mailRetryMaxMs: number;
  rateLimits: RateLimitSettings;
  /**
   * Staff (ADMIN, MANAGER) must sign in with a one-time code; one without it is sent to enrol first
   * (docs/adr/0018-staff-two-factor-sign-in.md). Off by default, recommended on in production.
   */
  staff2faRequired: boolean;
  /** Absolute lifetime and idle timeout of refresh sessions, for staff and for clients. */
  sessionPolicy: SessionPolicy;
  /** Encrypts the staff members' authenticator secrets at rest; kept apart from the JWT key so either can rotate. */
  twoFactorKey: string;
  /** The referral discount by active referrals, lowest tier first (`RewardTiers` hands it to the code that prices). */
  referralDiscountTiers: readonly ReferralDiscountTier[];
  /** The ambassador bonus by deposit size in cents, lowest tier first. */
  ambassadorBonusTiers: readonly AmbassadorBonusTier[];
  /** Support contacts shown to clients; null hides the contact. The Telegram one is a `https://t.me/…` link. */
  supportTelegram: string | null;
  supportEmail: string | null;
  kafka: KafkaSettings | null;
  /**
   * The Telegram bot (docs/adr/0103-telegram-channel.md); null when `TELEGRAM_BOT_TOKEN` is unset, and then the whole
   * Telegram feature is off: the profile says so and nothing is linked or sent.
   */
  telegram: TelegramSettings | null;
}

/** How updates reach the bot: Telegram POSTs them to our webhook, or one process of the fleet long-polls for them. */
export const TELEGRAM_MODES = ['webhook', 'polling'] as const;
export type TelegramMode = (typeof TELEGRAM_MODES)[number];

/** `TELEGRAM_…`: the bot Kupa speaks as (README.md, Telegram). */
export interface TelegramSettings {
  botToken: string;
  /** `TELEGRAM_BOT_USERNAME` without the `@`; null asks Telegram (`getMe`) once at start. */
  botUsername: string | null;
  mode: TelegramMode;
  /** `TELEGRAM_WEBHOOK_SECRET`: the `X-Telegram-Bot-Api-Secret-Token` Telegram sends; required in webhook mode. */
  webhookSecret: string | null;
  /** `TELEGRAM_API_ROOT`: the Bot API server (Telegram's, a self-hosted one, or the tests' fake). */
  apiRoot: string;
  /**
   * `TELEGRAM_STAFF_CHAT_ID`: the staff chat (a group's id is negative) that receives the operator's alerts (ADR
   * 0106); null: no alert goes to a staff chat, only to staff members who linked their own.
   */
  staffChatId: string | null;
  /** `TELEGRAM_STAFF_CHAT_LANGUAGE` (`he` by default): the language the staff chat's alerts are written in. */
  staffChatLanguage: Language;
  /**
   * `TELEGRAM_MESSAGES_PER_SECOND`: how many messages the fleet sends a second at most (Telegram documents about 30
   * for a bot; ADR 0104).
   */
  messagesPerSecond: number;
}

/** Telegram's documented limit for a bot's messages a second, across all chats. */
export const TELEGRAM_MESSAGES_PER_SECOND_MAX = 30;

/**
 * More provisioning lanes than this would wait on the process's database pool (20 connections, shared with the
 * processors) rather than on the service, and would crowd a real service's rate limits.
 */
export const PROVISIONING_CONCURRENCY_MAX = 16;

/** How long an idle processor or job queue waits before looking for new work on its own. */
export function queuePollIntervalMs(config: AppConfig): number {
  return config.workerWokenPollIntervalMs ?? config.workerPollIntervalMs;
}

/** Long enough to ride out a burst that fills the pool, short of the 30 s a browser or proxy gives up after. */
export const DEFAULT_DATABASE_CONNECT_TIMEOUT_MS = 10_000;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
}

/** The renewal safety net's defaults (docs/product.md, Subscriptions). */
export const RENEWAL_DEFAULTS = Object.freeze({ graceDays: 3, reminderDays: Object.freeze([7, 3, 1]) });
/** Reminders further ahead than this would arrive before the client could act on them, or pile up. */
export const RENEWAL_REMINDER_DAYS_MAX = 60;
/** More reminders than this for one occasion would be spam. */
export const RENEWAL_REMINDERS_MAX = 5;

/** A comma-separated list of distinct whole days, returned largest first: `7,3,1`. */
function dayList(env: NodeJS.ProcessEnv, name: string, fallback: readonly number[]): readonly number[] {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  const days = raw.split(',').map((part) => Number(part.trim()));
  const valid = days.every((day) => Number.isSafeInteger(day) && day >= 1 && day <= RENEWAL_REMINDER_DAYS_MAX);
  if (!valid || new Set(days).size !== days.length || days.length > RENEWAL_REMINDERS_MAX)
    throw new Error(
      `${name} must list up to ${RENEWAL_REMINDERS_MAX} distinct whole days from 1 to ${RENEWAL_REMINDER_DAYS_MAX}, got ${raw}`,
    );
  return Object.freeze([...days].sort((a, b) => b - a));
}

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

function logFormat(env: NodeJS.ProcessEnv): LogFormatSetting {
  const value = (optional(env, 'LOG_FORMAT') ?? 'auto').toLowerCase() as LogFormatSetting;
  if (!LOG_FORMATS.includes(value)) throw new Error(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, unset = false): boolean {
  const raw = optional(env, name);
  if (raw === null) return unset;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 1 or 0, got ${raw}`);
}

function dollars(env: NodeJS.ProcessEnv, name: string, fallbackMinor: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallbackMinor;
  const check = parseAmountToMinor(Number(raw));
  if (!check.ok)
    throw new Error(`${name} must be an amount of dollars above zero with at most two decimals, got ${raw}`);
  return check.amountMinor;
}

/** $1,000: the default size of a deposit a person should look at. */
const LARGE_DEPOSIT_MIN_DEFAULT_MINOR = 100_000;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * An idle timeout no longer than an access token's lifetime would end the sessions of people at work: the UIs
 * refresh only when their access token has expired, so an active session is refreshed about that often.
 */
function sessionLimits(
  env: NodeJS.ProcessEnv,
  max: { name: string; unitMs: number; fallback: number },
  idle: { name: string; unitMs: number; fallback: number },
): SessionLimits {
  const limits = {
    maxMs: positiveInteger(env, max.name, max.fallback) * max.unitMs,
    idleMs: positiveInteger(env, idle.name, idle.fallback) * idle.unitMs,
  };
  if (limits.idleMs <= LIMITS.accessTokenTtlSeconds * 1000)
    throw new Error(
      `${idle.name} must be longer than an access token lives (${LIMITS.accessTokenTtlSeconds / 60} minutes)`,
    );
  return limits;
}

function sessionPolicy(env: NodeJS.ProcessEnv): SessionPolicy {
  const defaults = SESSION_POLICY_DEFAULTS;
  return {
    staff: sessionLimits(
      env,
      { name: 'SESSION_STAFF_MAX_HOURS', unitMs: HOUR_MS, fallback: defaults.staffMaxHours },
      { name: 'SESSION_STAFF_IDLE_MINUTES', unitMs: MINUTE_MS, fallback: defaults.staffIdleMinutes },
    ),
    client: sessionLimits(
      env,
      { name: 'SESSION_CLIENT_MAX_DAYS', unitMs: DAY_MS, fallback: defaults.clientMaxDays },
      { name: 'SESSION_CLIENT_IDLE_DAYS', unitMs: DAY_MS, fallback: defaults.clientIdleDays },
    ),
  };
}

/** Where the streaming service is reached; each address is null when not configured. */
export interface StreamingConnect {
  siteUrl: string | null;
  iosAppUrl: string | null;
  androidAppUrl: string | null;
}

/** `value` as a URL, or null when it is not one. */
function urlOrNull(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** An address a client's browser opens: http(s) only, so a misconfigured `javascript:` link never reaches a page. */
function webAddress(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = optional(env, name);
  if (value === null) return null;
  const parsed = urlOrNull(value);
  if (parsed === null || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new Error(`${name} must be an http or https address, got ${value}`);
  return parsed.toString();
}

function streamingConnect(env: NodeJS.ProcessEnv): StreamingConnect | null {
  const connect = {
    siteUrl: webAddress(env, 'STREAMING_SITE_URL'),
    iosAppUrl: webAddress(env, 'STREAMING_IOS_APP_URL'),
    androidAppUrl: webAddress(env, 'STREAMING_ANDROID_APP_URL'),
  };
  return Object.values(connect).every((value) => value === null) ? null : connect;
}

/**
 * `DATABASE_REPLICA_URL`: a postgres:// address, never the primary's own (reads would then look "replayed" at once
 * and a wrong setting would pass unnoticed).
 */
function replicaUrl(env: NodeJS.ProcessEnv, databaseUrl: string | null): string | null {
  const raw = optional(env, 'DATABASE_REPLICA_URL');
  if (raw === null) return null;
  const parsed = urlOrNull(raw);
  if (parsed === null || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') || !parsed.hostname)
    throw new Error('DATABASE_REPLICA_URL must be a postgres:// address of a streaming replica');
  if (raw === databaseUrl) throw new Error('DATABASE_REPLICA_URL must name the replica, not DATABASE_URL itself');
  return raw;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

const WINDOW_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const RATE_LIMIT_FORMAT = /^(\d{1,9})\s*\/\s*(\d{1,6})\s*([smhd])$/;

function rateLimit(env: NodeJS.ProcessEnv, name: string, fallback: string): RateLimitSetting {
  const text = optional(env, name) ?? fallback;
  const match = RATE_LIMIT_FORMAT.exec(text);
  const limit = Number(match?.[1]);
  const windowMs = Number(match?.[2]) * WINDOW_UNIT_MS[(match?.[3] ?? 's') as keyof typeof WINDOW_UNIT_MS];
  if (!match || limit < 1 || windowMs < 1000)
    throw new Error(`${name} must be <count>/<window> with a window in s, m, h or d (such as 10/15m), got ${text}`);
  return { limit, windowMs };
}

function rateLimits(env: NodeJS.ProcessEnv): RateLimitSettings {
  return {
    signInFailuresPerAccountAndAddress: rateLimit(env, 'RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT_AND_ADDRESS', '10/15m'),
    signInFailuresPerAddress: rateLimit(env, 'RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS', '50/1h'),
    signInFailuresPerAccount: rateLimit(env, 'RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT', '20/1h'),
    signUpsPerAddress: rateLimit(env, 'RATE_LIMIT_SIGNUPS_PER_ADDRESS', '10/1h'),
    mailRequestsPerAddress: rateLimit(env, 'RATE_LIMIT_MAIL_REQUESTS_PER_ADDRESS', '10/15m'),
    recipientLookupsPerAccount: rateLimit(env, 'RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ACCOUNT', '20/15m'),
    recipientLookupsPerAddress: rateLimit(env, 'RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ADDRESS', '60/15m'),
    voucherMissesPerAccount: rateLimit(env, 'RATE_LIMIT_VOUCHER_MISSES_PER_ACCOUNT', '10/15m'),
    voucherMissesPerAddress: rateLimit(env, 'RATE_LIMIT_VOUCHER_MISSES_PER_ADDRESS', '30/15m'),
    stepUpFailuresPerAccount: rateLimit(env, 'RATE_LIMIT_STEP_UP_FAILURES_PER_ACCOUNT', '5/15m'),
  };
}

/**
 * A tier table from a JSON variable, or the default; a table that does not parse or breaks a rule of
 * `tierTableProblem` stops the start with the variable's name and the reason.
 */
function tierTable<Tier>(
  env: NodeJS.ProcessEnv,
  name: string,
  thresholdKey: 'minActiveReferrals' | 'minDepositMinor',
  fallback: readonly Tier[],
): readonly Tier[] {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be JSON such as [{"${thresholdKey}":1,"percent":5}], got ${raw}`);
  }
  const problem = tierTableProblem(value, thresholdKey);
  if (problem !== null) throw new Error(`${name}: ${problem}, got ${raw}`);
  return Object.freeze((value as Tier[]).map((tier) => Object.freeze({ ...tier })));
}

function provisioning(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  sandbox: boolean,
  purpose: ConfigPurpose,
): Pick<
  AppConfig,
  | 'provisioningUrl'
  | 'provisioningToken'
  | 'provisioningSimulatorFaults'
  | 'provisioningTimeoutMs'
  | 'provisioningLeaseMs'
  | 'provisioningConcurrency'
  | 'provisioningRetryAttempts'
  | 'provisioningRetryBaseMs'
  | 'provisioningRetryMaxMs'
> {
  const url = optional(env, 'PROVISIONING_URL');
  if (url !== null && !/^https?:\/\/[^\s/]+/.test(url))
    throw new Error(`PROVISIONING_URL must be an http or https address, got ${url}`);
  // A real deployment never "provisions" into the simulator: subscriptions it sells would exist nowhere.
  if (url === null && !sandbox && purpose === 'process')
    throw new Error(
      'PROVISIONING_URL is required outside the embedded demo setup (DATABASE_URL is set); KUPA_SANDBOX=1 runs the ' +
        'built-in streaming-service simulator instead, for demos and tests only',
    );
  const token = optional(env, 'PROVISIONING_TOKEN');
  // A real service is never called without credentials; the simulator accepts a token only this installation knows.
  if (url !== null && token === null) throw new Error('PROVISIONING_TOKEN is required when PROVISIONING_URL is set');
  const timeoutMs = positiveInteger(env, 'PROVISIONING_TIMEOUT_MS', 10_000);
  // Two calls may run under one lease (the call and the status check after a timeout); the default margin leaves a
  // minute for reporting the outcome on a busy database.
  const leaseMs = positiveInteger(env, 'PROVISIONING_LEASE_MS', timeoutMs * 2 + 60_000);
  if (leaseMs <= timeoutMs * 2)
    throw new Error(
      `PROVISIONING_LEASE_MS must be more than twice PROVISIONING_TIMEOUT_MS (${timeoutMs * 2}), got ${leaseMs}`,
    );
  const concurrency = positiveInteger(env, 'PROVISIONING_CONCURRENCY', 4);
  if (concurrency > PROVISIONING_CONCURRENCY_MAX)
    throw new Error(`PROVISIONING_CONCURRENCY must be at most ${PROVISIONING_CONCURRENCY_MAX}, got ${concurrency}`);
  return {
    provisioningUrl: url === null ? null : url.replace(/\/+$/, ''),
    provisioningToken: token ?? persistentSecret(dataDir, 'provisioning-token'),
    provisioningSimulatorFaults: flag(env, 'PROVISIONING_SIMULATOR_FAULTS'),
    provisioningTimeoutMs: timeoutMs,
    provisioningLeaseMs: leaseMs,
    provisioningConcurrency: concurrency,
    provisioningRetryAttempts: positiveInteger(env, 'PROVISIONING_RETRY_ATTEMPTS', 8),
    provisioningRetryBaseMs: positiveInteger(env, 'PROVISIONING_RETRY_BASE_MS', 30_000),
    provisioningRetryMaxMs: positiveInteger(env, 'PROVISIONING_RETRY_MAX_MS', 60 * 60_000),
  };
}

const KAFKA_BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;
/** Kafka topic names are at most 249 of these characters; a category adds a few dozen more at most. */
const KAFKA_TOPIC_PREFIX = /^[A-Za-z0-9._-]{0,100}$/;
/** Room for a consumer group of six members on each topic; one replica suits the single broker of compose. */
export const DEFAULT_KAFKA_TOPIC_PARTITIONS = 6;
export const DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR = 1;

function kafka(env: NodeJS.ProcessEnv): KafkaSettings | null {
  const raw = optional(env, 'KAFKA_BROKERS');
  if (raw === null) return null;
  const brokers = raw.split(',').map((broker) => broker.trim());
  const wrong = brokers.find((broker) => !KAFKA_BROKER.test(broker));
  if (wrong !== undefined)
    throw new Error(`KAFKA_BROKERS must be host:port pairs separated by commas, got ${JSON.stringify(wrong)}`);
  const topicPrefix = optional(env, 'KAFKA_TOPIC_PREFIX') ?? 'kupa.';
  if (!KAFKA_TOPIC_PREFIX.test(topicPrefix))
    throw new Error(`KAFKA_TOPIC_PREFIX may hold only letters, digits, '.', '_' and '-', got ${topicPrefix}`);
  return {
    brokers,
    clientId: optional(env, 'KAFKA_CLIENT_ID') ?? 'kupa',
    topicPrefix,
    topicPartitions: positiveInteger(env, 'KAFKA_TOPIC_PARTITIONS', DEFAULT_KAFKA_TOPIC_PARTITIONS),
    topicReplicationFactor: positiveInteger(
      env,
      'KAFKA_TOPIC_REPLICATION_FACTOR',
      DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
    ),
  };
}

/** Express's names for the loopback, link-local and private address ranges. */
const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function trustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_RANGES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: unset or `false` trusts no proxy (the peer is the client); a whole number trusts that many hops; a
 * comma list trusts those addresses, subnets (`10.0.0.0/8`) and named ranges. `true` (every peer) is refused: any
 * client could then choose the address its rate limits count.
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxySetting {
  const raw = optional(env, 'TRUST_PROXY');
  if (raw === null || raw === 'false') return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !trustedProxyEntry(entry));
  if (wrong !== undefined)
    throw new Error(
      `TRUST_PROXY must be false, a number of hops, or addresses, subnets and ${TRUST_PROXY_RANGES.join(', ')} ` +
        `separated by commas, got ${JSON.stringify(wrong)}`,
    );
  return Object.freeze(entries);
}

const TELEGRAM_USERNAME = /^@?([A-Za-z][A-Za-z0-9_]{3,31})$/;
/** A bot token as BotFather hands it out: `<bot id>:<secret>`. */
const TELEGRAM_BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,}$/;
/** What Telegram accepts as a webhook's secret token: 1–256 of these characters. */
const TELEGRAM_WEBHOOK_SECRET = /^[A-Za-z0-9_-]{16,256}$/;
/** A chat id: a user's or a group's (negative), or a public channel's `@name`. */
const TELEGRAM_CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

function telegram(env: NodeJS.ProcessEnv, publicUrl: string): TelegramSettings | null {
  const botToken = optional(env, 'TELEGRAM_BOT_TOKEN');
  if (botToken === null) return null;
  if (!TELEGRAM_BOT_TOKEN.test(botToken)) throw new Error('TELEGRAM_BOT_TOKEN must be a token as BotFather gives it');
  const rawUsername = optional(env, 'TELEGRAM_BOT_USERNAME');
  const botUsername = rawUsername === null ? null : (TELEGRAM_USERNAME.exec(rawUsername)?.[1] ?? null);
  if (rawUsername !== null && botUsername === null)
    throw new Error(`TELEGRAM_BOT_USERNAME must be a Telegram username, got ${rawUsername}`);
  const mode = (optional(env, 'TELEGRAM_MODE') ?? 'polling') as TelegramMode;
  if (!TELEGRAM_MODES.includes(mode)) throw new Error(`TELEGRAM_MODE must be one of ${TELEGRAM_MODES.join(', ')}`);
  const webhookSecret = optional(env, 'TELEGRAM_WEBHOOK_SECRET');
  if (webhookSecret !== null && !TELEGRAM_WEBHOOK_SECRET.test(webhookSecret))
    throw new Error('TELEGRAM_WEBHOOK_SECRET must be 16 to 256 letters, digits, _ or -');
  if (mode === 'webhook') {
    // Telegram delivers webhooks only over https to a public address, and the secret is what proves it is Telegram.
    if (!publicUrl.startsWith('https://'))
      throw new Error(`TELEGRAM_MODE=webhook needs a public https PUBLIC_URL, got ${publicUrl}`);
    if (webhookSecret === null) throw new Error('TELEGRAM_MODE=webhook needs TELEGRAM_WEBHOOK_SECRET');
  }
  const apiRoot = (webAddress(env, 'TELEGRAM_API_ROOT') ?? 'https://api.telegram.org').replace(/\/+$/, '');
  const staffChatId = optional(env, 'TELEGRAM_STAFF_CHAT_ID');
  if (staffChatId !== null && !TELEGRAM_CHAT_ID.test(staffChatId))
    throw new Error(`TELEGRAM_STAFF_CHAT_ID must be a chat id, got ${staffChatId}`);
  const staffChatLanguage = (optional(env, 'TELEGRAM_STAFF_CHAT_LANGUAGE') ?? 'he') as Language;
  if (!LANGUAGES.includes(staffChatLanguage))
    throw new Error(`TELEGRAM_STAFF_CHAT_LANGUAGE must be one of ${LANGUAGES.join(', ')}, got ${staffChatLanguage}`);
  const messagesPerSecond = positiveInteger(env, 'TELEGRAM_MESSAGES_PER_SECOND', 25);
  if (messagesPerSecond > TELEGRAM_MESSAGES_PER_SECOND_MAX)
    throw new Error(
      `TELEGRAM_MESSAGES_PER_SECOND must be at most ${TELEGRAM_MESSAGES_PER_SECOND_MAX}, Telegram's limit, got ${messagesPerSecond}`,
    );
  return {
    botToken,
    botUsername,
    mode,
    webhookSecret,
    apiRoot,
    staffChatId,
    staffChatLanguage,
    messagesPerSecond,
  };
}

/**
 * Telegram repeats a webhook update it got no answer for during up to a day: a handled update id must be kept at least
 * that long, or a late repeat would be handled twice.
 */
export const TELEGRAM_RETENTION_DAYS_MIN = 2;

function telegramRetentionDays(env: NodeJS.ProcessEnv): number {
  const days = positiveInteger(env, 'TELEGRAM_RETENTION_DAYS', 30);
  if (days < TELEGRAM_RETENTION_DAYS_MIN)
    throw new Error(`TELEGRAM_RETENTION_DAYS must be at least ${TELEGRAM_RETENTION_DAYS_MIN}, got ${days}`);
  return days;
}

const TELEGRAM_LINK = /^https:\/\/t\.me\/[A-Za-z0-9_+/-]+$/;

/** A Telegram username (`@kupa_support` or `kupa_support`) or a `https://t.me/…` link, read as the link. */
function telegramLink(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  if (TELEGRAM_LINK.test(raw)) return raw;
  const username = TELEGRAM_USERNAME.exec(raw)?.[1];
  if (!username) throw new Error(`${name} must be a Telegram username or a https://t.me/ link, got ${raw}`);
  return `https://t.me/${username}`;
}

function emailAddress(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  if (checkEmail(raw) !== null) throw new Error(`${name} must be an e-mail address, got ${raw}`);
  return raw;
}

function cashierLimits(env: NodeJS.ProcessEnv): { cashierDepositMinMinor: number; cashierDepositMaxMinor: number } {
  const cashierDepositMinMinor = dollars(env, 'CASHIER_DEPOSIT_MIN', CASHIER_DEFAULTS.depositMinMinor);
  const cashierDepositMaxMinor = dollars(env, 'CASHIER_DEPOSIT_MAX', CASHIER_DEFAULTS.depositMaxMinor);
  if (cashierDepositMinMinor > cashierDepositMaxMinor)
    throw new Error('CASHIER_DEPOSIT_MIN must not be above CASHIER_DEPOSIT_MAX');
  return { cashierDepositMinMinor, cashierDepositMaxMinor };
}

/**
 * The sandboxes this configuration runs, each with why, for the loud warning at start: a demo and test tool running
 * where real money or real subscriptions are expected must never go unnoticed.
 */
export function sandboxWarnings(config: AppConfig): string[] {
  if (!config.sandbox) return [];
  const why =
    config.databaseUrl === null
      ? 'the embedded demo setup (DATABASE_URL unset) turns the sandboxes on'
      : 'KUPA_SANDBOX=1 turns the sandboxes on';
  const warnings: string[] = [];
  if (config.cashierUrl === null)
    warnings.push(
      `SANDBOX CASHIER ON: crypto deposits are paid on a test invoice page and credit money nobody paid, because ` +
        `${why} and CASHIER_URL is unset. Never run it where real money is handled.`,
    );
  if (config.stripeSecretKey === null)
    warnings.push(
      `SANDBOX CARD ON: card purchases are paid on a test checkout page and credit money nobody paid, because ` +
        `${why} and STRIPE_SECRET_KEY is unset. Never run it where real money is handled.`,
    );
  if (config.provisioningUrl === null)
    warnings.push(
      `STREAMING SIMULATOR ON: subscriptions are provisioned into the built-in simulator, not a real service, ` +
        `because ${why} and PROVISIONING_URL is unset.`,
    );
  return warnings;
}

/**
 * One `warn` line per sandbox the configuration runs, loud at start in every process that runs them: a sandbox where
 * real money is expected must not go unnoticed. HTTP processes log them in `configureApp`; a worker-only process
 * (`runWorker`), whose provisioning jobs write into the simulator as much as any request, logs the same lines.
 */
export function warnOfSandboxes(config: AppConfig, logger: LoggerService): void {
  for (const warning of sandboxWarnings(config)) logger.warn(warning, 'Sandbox');
}

/** Reads a secret from the data directory, creating it once, so restarts keep sessions valid. */
export function persistentSecret(dataDir: string, fileName: string): string {
  const path = join(dataDir, fileName);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}

export function repositoryRoot(): string {
  // Compiled to services/api/dist/platform/config, source in services/api/src/platform/config: four levels up.
  return resolve(__dirname, '..', '..', '..', '..', '..');
}

/** `KUPA_ROLE`, `all` when unset; anything else stops the start with the values it takes. */
export function processRole(env: NodeJS.ProcessEnv = process.env): ProcessRole {
  const raw = optional(env, 'KUPA_ROLE');
  if (raw === null) return 'all';
  if (!(PROCESS_ROLES as readonly string[]).includes(raw))
    throw new Error(`KUPA_ROLE must be one of ${PROCESS_ROLES.join(', ')} (or unset, for all), got ${raw}`);
  return raw as ProcessRole;
}

/**
 * What the configuration is read for: a `process` (the server, an API process, a worker) or the `command-line`
 * (`kupa verify`, `kupa backup`, …), which provisions nothing and so runs on a real deployment's database, or a
 * restored copy of it, without the streaming service's address.
 */
export type ConfigPurpose = 'process' | 'command-line';

/** A TCP port; 0 lets the system choose a free one (tests). */
function portNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = Number(optional(env, name) ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number, got ${env[name]}`);
  return port;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, purpose: ConfigPurpose = 'process'): AppConfig {
  const port = portNumber(env, 'PORT', 3000);
  const dataDir = resolve(optional(env, 'KUPA_DATA_DIR') ?? join(repositoryRoot(), '.kupa'));
  const databaseUrl = optional(env, 'DATABASE_URL');
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'log') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const root = repositoryRoot();
  // The sandboxes mint money and "provision" nothing real: on by themselves only in the embedded demo setup.
  const sandbox = optional(env, 'KUPA_SANDBOX') === null ? databaseUrl === null : flag(env, 'KUPA_SANDBOX');
  const publicUrl = (optional(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    role: processRole(env),
    webConcurrency: positiveInteger(env, 'WEB_CONCURRENCY', 1),
    commandGrouping: flag(env, 'COMMAND_GROUPING', true),
    port,
    trustProxy: trustProxy(env),
    publicUrl,
    databaseUrl,
    databaseReplicaUrl: replicaUrl(env, databaseUrl),
    replicaMaxLagSeconds: positiveInteger(env, 'DATABASE_REPLICA_MAX_LAG_SECONDS', 30),
    databaseConnectTimeoutMs: positiveInteger(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_CONNECT_TIMEOUT_MS),
    dataDir,
    jwtSecret: optional(env, 'JWT_SECRET') ?? persistentSecret(dataDir, 'jwt-secret'),
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'Kupa <no-reply@kupa.local>',
    operator: {
      name: optional(env, 'OPERATOR_NAME') ?? 'Kupa',
      address: optional(env, 'OPERATOR_ADDRESS'),
      taxId: optional(env, 'OPERATOR_TAX_ID'),
    },
    stripeSecretKey: optional(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeApiBase: optional(env, 'STRIPE_API_BASE'),
    cashierUrl: optional(env, 'CASHIER_URL'),
    cashierApiKey: optional(env, 'CASHIER_API_KEY'),
    cashierIpnSecret: optional(env, 'CASHIER_IPN_SECRET'),
    ...cashierLimits(env),
    largeDepositMinMinor: dollars(env, 'LARGE_DEPOSIT_MIN', LARGE_DEPOSIT_MIN_DEFAULT_MINOR),
    staffAlertLargeDepositMinor: positiveInteger(env, 'STAFF_ALERT_LARGE_DEPOSIT_MINOR', 50_000),
    cashierPendingTimeoutMinutes: positiveInteger(
      env,
      'CASHIER_PENDING_TIMEOUT_MINUTES',
      CASHIER_DEFAULTS.pendingTimeoutMinutes,
    ),
    cashierJanitorIntervalMs: positiveInteger(env, 'CASHIER_JANITOR_INTERVAL_MS', 60_000),
    // A day, as long as a Stripe Checkout Session stays payable by default.
    cardPendingTimeoutMinutes: positiveInteger(env, 'CARD_PENDING_TIMEOUT_MINUTES', 1440),
    cardJanitorIntervalMs: positiveInteger(env, 'CARD_JANITOR_INTERVAL_MS', 60_000),
    cardBalancePayments: optional(env, 'CARD_BALANCE_PAYMENTS') === null || flag(env, 'CARD_BALANCE_PAYMENTS'),
    renewalGraceDays: positiveInteger(env, 'RENEWAL_GRACE_DAYS', RENEWAL_DEFAULTS.graceDays),
    renewalReminderDays: dayList(env, 'RENEWAL_REMINDER_DAYS', RENEWAL_DEFAULTS.reminderDays),
    broadcastMailsPerMinute: positiveInteger(env, 'BROADCAST_MAILS_PER_MINUTE', 60),
    telegramRetentionDays: telegramRetentionDays(env),
    sandbox,
    ...provisioning(env, dataDir, sandbox, purpose),
    streamingConnect: streamingConnect(env),
    // Demo data defaults on only for the embedded database, never for a database the operator named.
    demoData: (optional(env, 'DEMO_DATA') ?? (databaseUrl ? '0' : '1')) === '1',
    adminEmail: optional(env, 'ADMIN_EMAIL'),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    logLevel,
    logFormat: logFormat(env),
    processorLagAlertEvents: positiveInteger(env, 'PROCESSOR_LAG_ALERT_EVENTS', 10_000),
    processorLagAlertSeconds: positiveInteger(env, 'PROCESSOR_LAG_ALERT_SECONDS', 300),
    workerPort: portNumber(env, 'WORKER_PORT', 9464),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    passwordHashCost: PASSWORD_HASH_COST,
    adminUiDir: join(root, 'admin-ui', 'dist'),
    clientUiDir: join(root, 'client-ui', 'dist'),
    workerPollIntervalMs: positiveInteger(env, 'WORKER_POLL_INTERVAL_MS', 500),
    workerWokenPollIntervalMs: null,
    mailRetryBaseMs: positiveInteger(env, 'MAIL_RETRY_BASE_MS', 10_000),
    mailRetryMaxMs: positiveInteger(env, 'MAIL_RETRY_MAX_MS', 15 * 60_000),
    rateLimits: rateLimits(env),
    staff2faRequired: flag(env, 'STAFF_2FA_REQUIRED'),
    sessionPolicy: sessionPolicy(env),
    twoFactorKey: optional(env, 'TWO_FACTOR_KEY') ?? persistentSecret(dataDir, 'two-factor-key'),
    referralDiscountTiers: tierTable(
      env,
      'REFERRAL_DISCOUNT_TIERS',
      'minActiveReferrals',
      DEFAULT_REFERRAL_DISCOUNT_TIERS,
    ),
    ambassadorBonusTiers: tierTable(env, 'AMBASSADOR_BONUS_TIERS', 'minDepositMinor', DEFAULT_AMBASSADOR_BONUS_TIERS),
    supportTelegram: telegramLink(env, 'SUPPORT_TELEGRAM'),
    supportEmail: emailAddress(env, 'SUPPORT_EMAIL'),
    kafka: kafka(env),
    telegram: telegram(env, publicUrl),
  };
}
