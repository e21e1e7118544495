import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Typed configuration from the environment (README.md, Configuration). Every variable is optional: unset values fall
 * back to the embedded defaults, so `npm start` works on a fresh clone.
 */
export interface AppConfig {
  port: number;
  publicUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  jwtSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripeApiBase: string | null;
  cashierUrl: string | null;
  cashierApiKey: string | null;
  cashierIpnSecret: string | null;
  provisioningUrl: string | null;
  demoData: boolean;
  adminEmail: string | null;
  adminPassword: string | null;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Static UI bundles served beside the API; null disables serving (tests). */
  adminUiDir: string | null;
  clientUiDir: string | null;
  /** How long an idle processor or the mail dispatcher waits before looking for new work. */
  workerPollIntervalMs: number;
  /** The first retry of a mail that SMTP refused comes after this long, doubling up to `mailRetryMaxMs`. */
  mailRetryBaseMs: number;
  mailRetryMaxMs: number;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
}

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(optional(env, 'PORT') ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const dataDir = resolve(optional(env, 'KUPA_DATA_DIR') ?? join(repositoryRoot(), '.kupa'));
  const databaseUrl = optional(env, 'DATABASE_URL');
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'log') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const root = repositoryRoot();
  return {
    port,
    publicUrl: (optional(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    dataDir,
    jwtSecret: optional(env, 'JWT_SECRET') ?? persistentSecret(dataDir, 'jwt-secret'),
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'Kupa <no-reply@kupa.local>',
    stripeSecretKey: optional(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeApiBase: optional(env, 'STRIPE_API_BASE'),
    cashierUrl: optional(env, 'CASHIER_URL'),
    cashierApiKey: optional(env, 'CASHIER_API_KEY'),
    cashierIpnSecret: optional(env, 'CASHIER_IPN_SECRET'),
    provisioningUrl: optional(env, 'PROVISIONING_URL'),
    // Demo data defaults on only for the embedded database, never for a database the operator named.
    demoData: (optional(env, 'DEMO_DATA') ?? (databaseUrl ? '0' : '1')) === '1',
    adminEmail: optional(env, 'ADMIN_EMAIL'),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    logLevel,
    adminUiDir: join(root, 'admin-ui', 'dist'),
    clientUiDir: join(root, 'client-ui', 'dist'),
    workerPollIntervalMs: positiveInteger(env, 'WORKER_POLL_INTERVAL_MS', 500),
    mailRetryBaseMs: positiveInteger(env, 'MAIL_RETRY_BASE_MS', 10_000),
    mailRetryMaxMs: positiveInteger(env, 'MAIL_RETRY_MAX_MS', 15 * 60_000),
  };
}
