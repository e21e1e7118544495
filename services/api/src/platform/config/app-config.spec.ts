import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_AMBASSADOR_BONUS_TIERS, DEFAULT_REFERRAL_DISCOUNT_TIERS } from '@kupa/proto';
import { loadConfig, repositoryRoot, sandboxWarnings } from './app-config';

/** What a real deployment (DATABASE_URL set) must name instead of the streaming simulator. */
const STREAMING_SERVICE = { PROVISIONING_URL: 'https://streaming.example', PROVISIONING_TOKEN: 'real-token' };
import { RewardTiers } from './reward-tiers';

/** The defaults of the README's configuration table, read from an environment that sets nothing else. */
describe('loadConfig', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kupa-config-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives the embedded, self-contained setup when nothing is set', () => {
    const config = loadConfig({ KUPA_DATA_DIR: dataDir });
    expect(config).toMatchObject({
      role: 'all',
      webConcurrency: 1,
      commandGrouping: true,
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: null,
      databaseReplicaUrl: null,
      replicaMaxLagSeconds: 30,
      dataDir,
      smtpUrl: null,
      mailFrom: 'Kupa <no-reply@kupa.local>',
      stripeSecretKey: null,
      stripeWebhookSecret: null,
      stripeApiBase: null,
      cashierUrl: null,
      cashierApiKey: null,
      cashierIpnSecret: null,
      provisioningUrl: null,
      demoData: true,
      supportTelegram: null,
      supportEmail: null,
      kafka: null,
      adminEmail: null,
      adminPassword: null,
      logLevel: 'log',
      logFormat: 'auto',
      processorLagAlertEvents: 10_000,
      processorLagAlertSeconds: 300,
      workerPort: 9464,
      metricsToken: null,
      workerPollIntervalMs: 500,
      mailRetryBaseMs: 10_000,
      mailRetryMaxMs: 15 * 60_000,
      rateLimits: {
        signInFailuresPerAccountAndAddress: { limit: 10, windowMs: 15 * 60_000 },
        signInFailuresPerAddress: { limit: 50, windowMs: 60 * 60_000 },
        signInFailuresPerAccount: { limit: 20, windowMs: 60 * 60_000 },
        signUpsPerAddress: { limit: 10, windowMs: 60 * 60_000 },
        mailRequestsPerAddress: { limit: 10, windowMs: 15 * 60_000 },
      },
    });
  });

  it('reads the lag alert thresholds, the worker port and the metrics token, and refuses what is not one', () => {
    const config = loadConfig({
      KUPA_DATA_DIR: dataDir,
      PROCESSOR_LAG_ALERT_EVENTS: '50',
      PROCESSOR_LAG_ALERT_SECONDS: '20',
      WORKER_PORT: '9100',
      METRICS_TOKEN: ' scrape-me ',
    });
    expect(config).toMatchObject({
      processorLagAlertEvents: 50,
      processorLagAlertSeconds: 20,
      workerPort: 9100,
      metricsToken: 'scrape-me',
    });
    for (const wrong of ['0', '-5', '1.5', 'many']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PROCESSOR_LAG_ALERT_SECONDS: wrong })).toThrow(
        /PROCESSOR_LAG_ALERT_SECONDS must be a positive whole number/,
      );
    }
    for (const wrong of ['-1', '65536', '94.64', 'metrics'])
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, WORKER_PORT: wrong })).toThrow(
        /WORKER_PORT must be a port number/,
      );
  });

  it('reads the read replica and its lag limit, refusing an address that is not PostgreSQL or is the primary', () => {
    const primary = 'postgres://kupa@db-primary:5432/kupa';
    const replica = 'postgres://kupa@db-replica:5432/kupa';
    const env = { KUPA_DATA_DIR: dataDir, DATABASE_URL: primary, ...STREAMING_SERVICE };
    expect(loadConfig({ ...env, DATABASE_REPLICA_URL: replica, DATABASE_REPLICA_MAX_LAG_SECONDS: '5' })).toMatchObject({
      databaseReplicaUrl: replica,
      replicaMaxLagSeconds: 5,
    });
    expect(loadConfig({ ...env, DATABASE_REPLICA_URL: 'postgresql://kupa@replica/kupa' }).databaseReplicaUrl).toBe(
      'postgresql://kupa@replica/kupa',
    );
    expect(() => loadConfig({ ...env, DATABASE_REPLICA_URL: 'mysql://replica/kupa' })).toThrow(
      'DATABASE_REPLICA_URL must be a postgres:// address',
    );
    expect(() => loadConfig({ ...env, DATABASE_REPLICA_URL: 'replica:5432' })).toThrow('DATABASE_REPLICA_URL');
    expect(() => loadConfig({ ...env, DATABASE_REPLICA_URL: primary })).toThrow('not DATABASE_URL itself');
    expect(() => loadConfig({ ...env, DATABASE_REPLICA_URL: replica, DATABASE_REPLICA_MAX_LAG_SECONDS: '0' })).toThrow(
      'DATABASE_REPLICA_MAX_LAG_SECONDS must be a positive whole number',
    );
  });

  it('reads where clients reach the streaming service, none by default, and refuses what a browser should not open', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).streamingConnect).toBeNull();
    expect(
      loadConfig({ KUPA_DATA_DIR: dataDir, STREAMING_SITE_URL: ' https://watch.example/start ' }).streamingConnect,
    ).toEqual({ siteUrl: 'https://watch.example/start', iosAppUrl: null, androidAppUrl: null });
    for (const value of ['javascript:alert(1)', 'watch.example', 'ftp://watch.example']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, STREAMING_IOS_APP_URL: value })).toThrow(
        /STREAMING_IOS_APP_URL must be an http or https address/,
      );
    }
  });

  it('reads rate limits as <count>/<window> and refuses anything else', () => {
    const config = loadConfig({
      KUPA_DATA_DIR: dataDir,
      RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '200 / 1d',
      RATE_LIMIT_SIGNUPS_PER_ADDRESS: '3/90s',
    });
    expect(config.rateLimits.signInFailuresPerAddress).toEqual({ limit: 200, windowMs: 86_400_000 });
    expect(config.rateLimits.signUpsPerAddress).toEqual({ limit: 3, windowMs: 90_000 });
    for (const wrong of ['10', '10/15', '0/1h', '10/0m', 'ten/1h', '10/1w', '-1/1h']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, RATE_LIMIT_SIGNUPS_PER_ADDRESS: wrong })).toThrow(
        /RATE_LIMIT_SIGNUPS_PER_ADDRESS must be <count>\/<window>/,
      );
    }
  });

  it('seeds demo data by default only on the embedded database, never on one the operator named', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).demoData).toBe(true);
    const named = loadConfig({
      KUPA_DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://kupa@db.example:5432/kupa',
      ...STREAMING_SERVICE,
    });
    expect(named.databaseUrl).toBe('postgres://kupa@db.example:5432/kupa');
    expect(named.demoData).toBe(false);
    // An explicit choice wins either way.
    expect(
      loadConfig({ KUPA_DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/kupa', DEMO_DATA: '1', ...STREAMING_SERVICE })
        .demoData,
    ).toBe(true);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, DEMO_DATA: '0' }).demoData).toBe(false);
  });

  it('generates the JWT secret once into the data directory, readable by the owner only, and keeps it', () => {
    const first = loadConfig({ KUPA_DATA_DIR: dataDir });
    const file = join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A restart reads the same secret, so access tokens issued before it stay valid.
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
    const other = mkdtempSync(join(tmpdir(), 'kupa-config-other-'));
    try {
      expect(loadConfig({ KUPA_DATA_DIR: other }).jwtSecret).not.toBe(first.jwtSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('uses a JWT_SECRET that is set and writes no secret then', () => {
    const config = loadConfig({ KUPA_DATA_DIR: dataDir, JWT_SECRET: 'operator-chosen-secret' });
    expect(config.jwtSecret).toBe('operator-chosen-secret');
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(false);
  });

  it('keeps the data in ./.kupa of the repository when KUPA_DATA_DIR is unset', () => {
    const config = loadConfig({
      JWT_SECRET: 'set-so-that-nothing-is-written',
      TWO_FACTOR_KEY: 'set-as-well',
      PROVISIONING_TOKEN: 'and-this',
    });
    expect(config.dataDir).toBe(join(repositoryRoot(), '.kupa'));
    expect(existsSync(join(repositoryRoot(), 'services', 'api', 'package.json'))).toBe(true);
  });

  it('generates the two-factor key apart from the JWT secret, and reads STAFF_2FA_REQUIRED as a flag', () => {
    const config = loadConfig({ KUPA_DATA_DIR: dataDir });
    expect(readFileSync(join(dataDir, 'two-factor-key'), 'utf8').trim()).toBe(config.twoFactorKey);
    expect(config.twoFactorKey).not.toBe(config.jwtSecret);
    expect(config.staff2faRequired).toBe(false);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, STAFF_2FA_REQUIRED: '1' }).staff2faRequired).toBe(true);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, STAFF_2FA_REQUIRED: 'false' }).staff2faRequired).toBe(false);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, STAFF_2FA_REQUIRED: 'yes' })).toThrow(/STAFF_2FA_REQUIRED/);
  });

  it('ends staff sessions after 12 hours or 30 idle minutes and clients’ after 30 or 7 idle days, unless told', () => {
    const hourMs = 3_600_000;
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).sessionPolicy).toEqual({
      staff: { maxMs: 12 * hourMs, idleMs: 30 * 60_000 },
      client: { maxMs: 30 * 24 * hourMs, idleMs: 7 * 24 * hourMs },
    });
    const configured = loadConfig({
      KUPA_DATA_DIR: dataDir,
      SESSION_STAFF_MAX_HOURS: '8',
      SESSION_STAFF_IDLE_MINUTES: '20',
      SESSION_CLIENT_MAX_DAYS: '90',
      SESSION_CLIENT_IDLE_DAYS: '14',
    }).sessionPolicy;
    expect(configured).toEqual({
      staff: { maxMs: 8 * hourMs, idleMs: 20 * 60_000 },
      client: { maxMs: 90 * 24 * hourMs, idleMs: 14 * 24 * hourMs },
    });
    // An idle timeout an access token outlives would sign out people at work between two refreshes.
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, SESSION_STAFF_IDLE_MINUTES: '15' })).toThrow(
      /SESSION_STAFF_IDLE_MINUTES/,
    );
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, SESSION_CLIENT_MAX_DAYS: '0' })).toThrow(
      /SESSION_CLIENT_MAX_DAYS/,
    );
  });

  it('runs the provisioning simulator by default with a kept token, and needs a token beside PROVISIONING_URL', () => {
    const simulated = loadConfig({ KUPA_DATA_DIR: dataDir });
    expect(simulated).toMatchObject({
      provisioningUrl: null,
      provisioningSimulatorFaults: false,
      provisioningTimeoutMs: 10_000,
      provisioningLeaseMs: 80_000,
      provisioningConcurrency: 4,
      provisioningRetryAttempts: 8,
      provisioningRetryBaseMs: 30_000,
      provisioningRetryMaxMs: 60 * 60_000,
    });
    expect(readFileSync(join(dataDir, 'provisioning-token'), 'utf8').trim()).toBe(simulated.provisioningToken);
    // The lease follows the timeout unless set, and must cover two calls.
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_TIMEOUT_MS: '3000' }).provisioningLeaseMs).toBe(66_000);
    expect(
      loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_TIMEOUT_MS: '3000', PROVISIONING_LEASE_MS: '10000' })
        .provisioningLeaseMs,
    ).toBe(10_000);
    expect(() =>
      loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_TIMEOUT_MS: '3000', PROVISIONING_LEASE_MS: '6000' }),
    ).toThrow(/PROVISIONING_LEASE_MS must be more than twice PROVISIONING_TIMEOUT_MS \(6000\)/);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_CONCURRENCY: '16' }).provisioningConcurrency).toBe(16);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_CONCURRENCY: '17' })).toThrow(
      /PROVISIONING_CONCURRENCY must be at most 16, got 17/,
    );
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_CONCURRENCY: '0' })).toThrow(
      /PROVISIONING_CONCURRENCY must be a positive whole number/,
    );
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).provisioningToken).toBe(simulated.provisioningToken);
    const real = loadConfig({
      KUPA_DATA_DIR: dataDir,
      PROVISIONING_URL: 'https://streaming.example/',
      PROVISIONING_TOKEN: 'real-token',
      PROVISIONING_SIMULATOR_FAULTS: '1',
    });
    expect(real).toMatchObject({
      provisioningUrl: 'https://streaming.example',
      provisioningToken: 'real-token',
      provisioningSimulatorFaults: true,
    });
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_URL: 'https://streaming.example' })).toThrow(
      /PROVISIONING_TOKEN is required/,
    );
    expect(() =>
      loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_URL: 'streaming.example', PROVISIONING_TOKEN: 't' }),
    ).toThrow(/PROVISIONING_URL must be an http/);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PROVISIONING_RETRY_ATTEMPTS: '0' })).toThrow(
      /PROVISIONING_RETRY_ATTEMPTS/,
    );
  });

  it('runs the sandboxes by themselves only in the embedded demo setup, elsewhere only with KUPA_SANDBOX=1', () => {
    const demo = loadConfig({ KUPA_DATA_DIR: dataDir });
    expect(demo.sandbox).toBe(true);
    expect(sandboxWarnings(demo)).toEqual([
      expect.stringMatching(/^SANDBOX CASHIER ON: .*embedded demo setup \(DATABASE_URL unset\).*CASHIER_URL is unset/),
      expect.stringMatching(/^SANDBOX CARD ON: .*embedded demo setup.*STRIPE_SECRET_KEY is unset/),
      expect.stringMatching(/^STREAMING SIMULATOR ON: .*embedded demo setup.*PROVISIONING_URL is unset/),
    ]);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KUPA_SANDBOX: '0', ...STREAMING_SERVICE }).sandbox).toBe(false);

    // A real deployment: no sandbox, and no start without a streaming service to provision into.
    const database = { KUPA_DATA_DIR: dataDir, DATABASE_URL: 'postgres://kupa@db.example:5432/kupa' };
    expect(() => loadConfig(database)).toThrow(/PROVISIONING_URL is required outside the embedded demo setup/);
    expect(() => loadConfig({ ...database, KUPA_SANDBOX: '0' })).toThrow(/PROVISIONING_URL is required/);
    // The command line provisions nothing: verify and backup run on a restored copy without the service's address.
    expect(loadConfig(database, 'command-line')).toMatchObject({ sandbox: false, provisioningUrl: null });
    const real = loadConfig({ ...database, ...STREAMING_SERVICE });
    expect(real.sandbox).toBe(false);
    expect(real.cashierUrl).toBeNull();
    expect(sandboxWarnings(real)).toEqual([]);

    // Tests and demos on a named database ask for the sandboxes explicitly, and are warned about each one.
    const asked = loadConfig({ ...database, KUPA_SANDBOX: '1' });
    expect(asked).toMatchObject({ sandbox: true, provisioningUrl: null });
    expect(sandboxWarnings(asked)).toEqual([
      expect.stringMatching(/^SANDBOX CASHIER ON: .*KUPA_SANDBOX=1/),
      expect.stringMatching(/^SANDBOX CARD ON: .*KUPA_SANDBOX=1/),
      expect.stringMatching(/^STREAMING SIMULATOR ON: .*KUPA_SANDBOX=1/),
    ]);
    const realProviders = loadConfig({
      ...database,
      KUPA_SANDBOX: 'true',
      CASHIER_URL: 'https://api.nowpayments.io',
      STRIPE_SECRET_KEY: 'sk_live_real',
    });
    expect(sandboxWarnings(realProviders)).toEqual([expect.stringMatching(/^STREAMING SIMULATOR ON/)]);
    expect(() => loadConfig({ ...database, KUPA_SANDBOX: 'yes' })).toThrow(/KUPA_SANDBOX must be 1 or 0/);
  });

  it('follows PORT in the default public URL and trims a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, PUBLIC_URL: 'https://kupa.example/' }).publicUrl).toBe(
      'https://kupa.example',
    );
  });

  it('treats blank variables as unset', () => {
    const config = loadConfig({ KUPA_DATA_DIR: dataDir, DATABASE_URL: '  ', SMTP_URL: '', LOG_LEVEL: ' ', PORT: '' });
    expect(config).toMatchObject({ databaseUrl: null, smtpUrl: null, logLevel: 'log', port: 3000, demoData: true });
  });

  it('refuses a port or log level it cannot use', () => {
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, PORT: 'http' })).toThrow(/PORT/);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, LOG_LEVEL: 'trace' })).toThrow(/LOG_LEVEL/);
  });

  it('reads LOG_FORMAT, auto by default, and refuses a format it does not know with the ones it does', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).logFormat).toBe('auto');
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, LOG_FORMAT: ' ' }).logFormat).toBe('auto');
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, LOG_FORMAT: 'text' })).toThrow(
      'LOG_FORMAT must be one of auto, pretty, json',
    );
  });

  it('reads the process role and WEB_CONCURRENCY, refusing a role it does not know with the ones it does', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KUPA_ROLE: 'api', WEB_CONCURRENCY: '4' })).toMatchObject({
      role: 'api',
      webConcurrency: 4,
    });
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KUPA_ROLE: 'worker' }).role).toBe('worker');
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KUPA_ROLE: ' ' }).role).toBe('all');
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, KUPA_ROLE: 'web' })).toThrow(
      'KUPA_ROLE must be one of api, worker, all (or unset, for all), got web',
    );
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
  });

  it('reads the worker and mail retry timings, refusing what is not a positive whole number', () => {
    const config = loadConfig({
      KUPA_DATA_DIR: dataDir,
      WORKER_POLL_INTERVAL_MS: '50',
      MAIL_RETRY_BASE_MS: '1000',
      MAIL_RETRY_MAX_MS: '60000',
    });
    expect(config).toMatchObject({ workerPollIntervalMs: 50, mailRetryBaseMs: 1000, mailRetryMaxMs: 60_000 });
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, MAIL_RETRY_BASE_MS: '0' })).toThrow(/MAIL_RETRY_BASE_MS/);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, WORKER_POLL_INTERVAL_MS: '1.5' })).toThrow(/WORKER_POLL/);
  });

  it('keeps a lapsed renewal 3 days and reminds 7, 3 and 1 days ahead, unless told, largest first', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir })).toMatchObject({
      renewalGraceDays: 3,
      renewalReminderDays: [7, 3, 1],
    });
    const config = loadConfig({ KUPA_DATA_DIR: dataDir, RENEWAL_GRACE_DAYS: '5', RENEWAL_REMINDER_DAYS: '2, 10' });
    expect(config).toMatchObject({ renewalGraceDays: 5, renewalReminderDays: [10, 2] });
    for (const days of ['0', '3,3', '1.5', '61', '1,2,3,4,5,6', 'soon'])
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, RENEWAL_REMINDER_DAYS: days })).toThrow(
        /RENEWAL_REMINDER_DAYS/,
      );
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, RENEWAL_GRACE_DAYS: '0' })).toThrow(/RENEWAL_GRACE_DAYS/);
  });

  it('lists deposits of $1,000 and more in the dashboard queue unless LARGE_DEPOSIT_MIN says, refusing non-amounts', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).largeDepositMinMinor).toBe(100_000);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, LARGE_DEPOSIT_MIN: '250.5' }).largeDepositMinMinor).toBe(25_050);
    for (const bad of ['0', '-5', '1.234', 'lots'])
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, LARGE_DEPOSIT_MIN: bad })).toThrow(/LARGE_DEPOSIT_MIN/);
  });

  it('takes card money to the balance unless CARD_BALANCE_PAYMENTS turns it off, refusing anything but 1 or 0', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).cardBalancePayments).toBe(true);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, CARD_BALANCE_PAYMENTS: '0' }).cardBalancePayments).toBe(false);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, CARD_BALANCE_PAYMENTS: 'true' }).cardBalancePayments).toBe(true);
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, CARD_BALANCE_PAYMENTS: 'off' })).toThrow(/CARD_BALANCE_PAYMENTS/);
  });

  it('reads the reward tier tables as JSON, defaulting to proto, and refuses a table it cannot use at start', () => {
    const defaults = loadConfig({ KUPA_DATA_DIR: dataDir });
    expect(defaults.referralDiscountTiers).toEqual(DEFAULT_REFERRAL_DISCOUNT_TIERS);
    expect(defaults.ambassadorBonusTiers).toEqual(DEFAULT_AMBASSADOR_BONUS_TIERS);
    const configured = loadConfig({
      KUPA_DATA_DIR: dataDir,
      REFERRAL_DISCOUNT_TIERS: '[{"minActiveReferrals":2,"percent":7}]',
      AMBASSADOR_BONUS_TIERS: '[{"minDepositMinor":1000,"percent":3},{"minDepositMinor":9000,"percent":30}]',
    });
    const tiers = new RewardTiers(configured);
    expect(tiers.referralDiscountPercent(1)).toBe(0);
    expect(tiers.referralDiscountPercent(2)).toBe(7);
    expect(tiers.ambassadorBonusMinor(999)).toBe(0);
    expect(tiers.ambassadorBonusMinor(1000)).toBe(30);
    expect(tiers.ambassadorBonusPercent(9000)).toBe(30);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, AMBASSADOR_BONUS_TIERS: '[]' }).ambassadorBonusTiers).toEqual([]);
    const refusals: Array<[string, string, RegExp]> = [
      ['AMBASSADOR_BONUS_TIERS', '5%', /AMBASSADOR_BONUS_TIERS must be JSON/],
      ['AMBASSADOR_BONUS_TIERS', '[{"minDepositMinor":500,"percent":120}]', /percent must be a whole number from 0/],
      [
        'REFERRAL_DISCOUNT_TIERS',
        '[{"minActiveReferrals":3,"percent":5},{"minActiveReferrals":1,"percent":10}]',
        /REFERRAL_DISCOUNT_TIERS: tier 2: minActiveReferrals must be greater/,
      ],
      ['REFERRAL_DISCOUNT_TIERS', '[{"minDepositMinor":1,"percent":5}]', /exactly the fields minActiveReferrals/],
    ];
    for (const [name, value, message] of refusals)
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, [name]: value })).toThrow(message);
  });

  it('reads the support contacts: a Telegram username or t.me link as the link, an e-mail address as it is', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, SUPPORT_TELEGRAM: '@kupa_help' }).supportTelegram).toBe(
      'https://t.me/kupa_help',
    );
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, SUPPORT_TELEGRAM: 'https://t.me/kupa_help' }).supportTelegram).toBe(
      'https://t.me/kupa_help',
    );
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, SUPPORT_EMAIL: ' help@kupa.example ' }).supportEmail).toBe(
      'help@kupa.example',
    );
    for (const wrong of ['http://t.me/x', 'https://evil.example/kupa', 'ab', 'kupa help']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, SUPPORT_TELEGRAM: wrong })).toThrow(/SUPPORT_TELEGRAM/);
    }
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('publishes to Kafka only with KAFKA_BROKERS, with the client id, topic prefix and topic shape defaulted', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KAFKA_CLIENT_ID: 'ignored-without-brokers' }).kafka).toBeNull();
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, KAFKA_BROKERS: 'kafka-1:9092, 10.0.0.2:9093' }).kafka).toEqual({
      brokers: ['kafka-1:9092', '10.0.0.2:9093'],
      clientId: 'kupa',
      topicPrefix: 'kupa.',
      topicPartitions: 6,
      topicReplicationFactor: 1,
    });
    expect(
      loadConfig({
        KUPA_DATA_DIR: dataDir,
        KAFKA_BROKERS: '[::1]:9092',
        KAFKA_CLIENT_ID: 'kupa-eu',
        KAFKA_TOPIC_PREFIX: 'prod.kupa-',
        KAFKA_TOPIC_PARTITIONS: '24',
        KAFKA_TOPIC_REPLICATION_FACTOR: '3',
      }).kafka,
    ).toEqual({
      brokers: ['[::1]:9092'],
      clientId: 'kupa-eu',
      topicPrefix: 'prod.kupa-',
      topicPartitions: 24,
      topicReplicationFactor: 3,
    });
    for (const wrong of ['kafka-1', 'kafka-1:9092,', 'kafka://kafka-1:9092', 'kafka 1:9092']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, KAFKA_BROKERS: wrong })).toThrow(/KAFKA_BROKERS/);
    }
    expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, KAFKA_BROKERS: 'k:9092', KAFKA_TOPIC_PREFIX: 'a/b' })).toThrow(
      /KAFKA_TOPIC_PREFIX/,
    );
    for (const name of ['KAFKA_TOPIC_PARTITIONS', 'KAFKA_TOPIC_REPLICATION_FACTOR']) {
      for (const wrong of ['0', '-1', '2.5', 'six'])
        expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, KAFKA_BROKERS: 'k:9092', [name]: wrong })).toThrow(name);
    }
  });

  it('trusts no proxy by default, and otherwise a number of hops or a list of addresses, subnets and ranges', () => {
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).trustProxy).toBe(false);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      loadConfig({ KUPA_DATA_DIR: dataDir, TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.7, fd00::/8' }).trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    for (const wrong of ['true', 'everyone', '10.0.0.0/33', '10.0.0/8', 'loopback,', '1.2.3.4/8/9', '999']) {
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY/);
    }
  });

  it('alerts the staff chat in Hebrew unless told, and from $500 a deposit unless told, refusing other values', () => {
    const token = '123456:abcdefghijklmnopqrstuvwxyz_-';
    const bot = { KUPA_DATA_DIR: dataDir, TELEGRAM_BOT_TOKEN: token };
    expect(loadConfig({ ...bot, TELEGRAM_STAFF_CHAT_LANGUAGE: 'en' }).telegram?.staffChatLanguage).toBe('en');
    expect(() => loadConfig({ ...bot, TELEGRAM_STAFF_CHAT_LANGUAGE: 'fr' })).toThrow(/TELEGRAM_STAFF_CHAT_LANGUAGE/);
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).staffAlertLargeDepositMinor).toBe(50_000);
    expect(
      loadConfig({ KUPA_DATA_DIR: dataDir, STAFF_ALERT_LARGE_DEPOSIT_MINOR: '120000' }).staffAlertLargeDepositMinor,
    ).toBe(120_000);
    for (const bad of ['0', '5.5', 'lots'])
      expect(() => loadConfig({ KUPA_DATA_DIR: dataDir, STAFF_ALERT_LARGE_DEPOSIT_MINOR: bad })).toThrow(
        /STAFF_ALERT_LARGE_DEPOSIT_MINOR/,
      );
  });

  it('turns Telegram off without a token, polls by default, and needs https and a secret for a webhook', () => {
    const token = '123456:abcdefghijklmnopqrstuvwxyz_-';
    const secret = 'a-webhook-secret-of-kupa';
    expect(loadConfig({ KUPA_DATA_DIR: dataDir }).telegram).toBeNull();
    expect(loadConfig({ KUPA_DATA_DIR: dataDir, TELEGRAM_BOT_TOKEN: token }).telegram).toEqual({
      botToken: token,
      botUsername: null,
      mode: 'polling',
      webhookSecret: null,
      apiRoot: 'https://api.telegram.org',
      staffChatId: null,
      staffChatLanguage: 'he',
      messagesPerSecond: 25,
    });
    const webhook = loadConfig({
      KUPA_DATA_DIR: dataDir,
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_BOT_USERNAME: '@kupa_bot',
      TELEGRAM_MODE: 'webhook',
      TELEGRAM_WEBHOOK_SECRET: secret,
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/',
      TELEGRAM_STAFF_CHAT_ID: '-1001234567',
      PUBLIC_URL: 'https://kupa.example',
    }).telegram;
    expect(webhook).toMatchObject({
      botUsername: 'kupa_bot',
      mode: 'webhook',
      webhookSecret: secret,
      apiRoot: 'http://127.0.0.1:8081',
      staffChatId: '-1001234567',
    });
    const base = { KUPA_DATA_DIR: dataDir, TELEGRAM_BOT_TOKEN: token };
    expect(loadConfig({ ...base, TELEGRAM_MESSAGES_PER_SECOND: '10' }).telegram?.messagesPerSecond).toBe(10);
    expect(() => loadConfig({ ...base, TELEGRAM_MESSAGES_PER_SECOND: '31' })).toThrow(
      'TELEGRAM_MESSAGES_PER_SECOND must be at most 30',
    );
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_TOKEN: 'not-a-token' })).toThrow('TELEGRAM_BOT_TOKEN');
    expect(() => loadConfig({ ...base, TELEGRAM_MODE: 'push' })).toThrow(
      'TELEGRAM_MODE must be one of webhook, polling',
    );
    expect(() =>
      loadConfig({
        ...base,
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_WEBHOOK_SECRET: secret,
        PUBLIC_URL: 'http://kupa.local',
      }),
    ).toThrow('public https PUBLIC_URL');
    expect(() => loadConfig({ ...base, TELEGRAM_MODE: 'webhook', PUBLIC_URL: 'https://kupa.example' })).toThrow(
      'needs TELEGRAM_WEBHOOK_SECRET',
    );
    expect(() => loadConfig({ ...base, TELEGRAM_WEBHOOK_SECRET: 'short' })).toThrow('TELEGRAM_WEBHOOK_SECRET');
    expect(() => loadConfig({ ...base, TELEGRAM_BOT_USERNAME: 'a b' })).toThrow('TELEGRAM_BOT_USERNAME');
    expect(() => loadConfig({ ...base, TELEGRAM_STAFF_CHAT_ID: 'staff' })).toThrow('TELEGRAM_STAFF_CHAT_ID');
    expect(() => loadConfig({ ...base, TELEGRAM_API_ROOT: 'ftp://bots' })).toThrow('TELEGRAM_API_ROOT');
  });

  it('reads how long Telegram history is kept, at least the day Telegram repeats an update', () => {
    const base = { KUPA_DATA_DIR: dataDir };
    expect(loadConfig(base).telegramRetentionDays).toBe(30);
    expect(loadConfig({ ...base, TELEGRAM_RETENTION_DAYS: '7' }).telegramRetentionDays).toBe(7);
    expect(() => loadConfig({ ...base, TELEGRAM_RETENTION_DAYS: '1' })).toThrow(
      'TELEGRAM_RETENTION_DAYS must be at least 2',
    );
    expect(() => loadConfig({ ...base, TELEGRAM_RETENTION_DAYS: 'month' })).toThrow(
      'TELEGRAM_RETENTION_DAYS must be a positive whole number',
    );
  });
});
