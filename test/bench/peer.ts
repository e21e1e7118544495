import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { JwtService } from '@nestjs/jwt';
import pg from 'pg';

/**
 * The bench's side of the conventional peer (test/bench/peer/, docs/benchmarks.md "The peer"): compiles it with
 * decorator metadata into node_modules/.cache (never a build or package output), gives it its own database on the
 * same PostgreSQL server, seeds one account per bench user with the same balance as ours, mints its tokens, starts
 * it as the same number of API processes as our server, and checks afterwards that its money still adds up.
 */
const REPO_ROOT = join(import.meta.dirname, '..', '..');
const PEER_SOURCE = join(import.meta.dirname, 'peer');
const PEER_BUILD = join(REPO_ROOT, 'node_modules', '.cache', 'kupa-bench-peer');
const READY_TIMEOUT_MS = 120_000;

/** How long the peer's pools keep an idle connection: short, so that `idle()` returns soon after a window. */
const PEER_IDLE_CLOSE_MS = 1000;

export interface PeerOptions {
  /** A connection to the server our API uses, allowed to create a database. */
  adminDatabaseUrl: string;
  processes: number;
  /** One account per e-mail (the bench's pair users), each funded with `balanceMinor`. */
  emails: string[];
  balanceMinor: number;
}

export interface PeerLedger {
  pid: number;
  databaseUrl: string;
  /** A transfer of `amountMinor` from the account of `emails[fromIndex]` to the user with `toEmail`. */
  transfer(fromIndex: number, toEmail: string, amountMinor: number): Promise<void>;
  /** What the peer answers a missing token, a malformed body and an overdraft: 401, 400 and 422 if its guard,
   * pipe and balance check work. */
  refusals(): Promise<{ noToken: number; malformedBody: number; overdraft: number; ok: boolean }>;
  /** The money check: nothing created or lost, no overdraft, two entries per transfer summing to zero. */
  check(): Promise<PeerCheck>;
  /**
   * Resolves once the peer's pools have closed their idle connections (`PEER_IDLE_CLOSE_MS` after its last request),
   * so that our window after the peer's starts on a server that is not holding the peer's 40: at 32 clients the two
   * parties' pools, our worker and the raw commits' clients passed PostgreSQL's default 100 connections.
   */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface PeerCheck {
  accounts: number;
  balanceSumMinor: number;
  expectedBalanceSumMinor: number;
  negativeBalances: number;
  transfers: number;
  entries: number;
  unbalancedTransfers: number;
  ok: boolean;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

async function onServer(adminDatabaseUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the peer did not start in time')), READY_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('PEER_READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the peer exited with ${code} before it was ready`));
    });
  });
}

export async function startPeer(options: PeerOptions): Promise<PeerLedger> {
  await run(process.execPath, [
    join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join(PEER_SOURCE, 'tsconfig.json'),
  ]);
  // The repository is ESM; the compiled peer is CommonJS, as NestJS applications usually are.
  writeFileSync(join(PEER_BUILD, 'package.json'), '{ "type": "commonjs" }\n');

  // A database of its own, named per run (other runs may share the server), dropped when the peer stops.
  const databaseName = `kupa_bench_peer_${randomBytes(6).toString('hex')}`;
  await onServer(options.adminDatabaseUrl, `CREATE DATABASE ${databaseName}`);
  const url = new URL(options.adminDatabaseUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();

  const secret = randomBytes(32).toString('hex');
  const port = await freePort();
  const child = spawn(process.execPath, [join(PEER_BUILD, 'main.js')], {
    env: {
      ...process.env,
      PEER_DATABASE_URL: databaseUrl,
      PEER_PORT: String(port),
      PEER_PROCESSES: String(options.processes),
      PEER_JWT_SECRET: secret,
      PEER_IDLE_CLOSE_MS: String(PEER_IDLE_CLOSE_MS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForReady(child);

  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined);
  await db.connect();
  const users = (
    await db.query<{ id: number; email: string }>(
      'INSERT INTO peer_users (email) SELECT unnest($1::text[]) RETURNING id, email',
      [options.emails],
    )
  ).rows;
  await db.query('INSERT INTO peer_accounts (owner_id, balance_minor) SELECT unnest($1::int[]), $2', [
    users.map((user) => user.id),
    options.balanceMinor,
  ]);
  const idByEmail = new Map(users.map((user) => [user.email, user.id]));
  // Pre-minted, as our bench signs its users in before a timed phase: neither side signs in while it is measured.
  const signer = new JwtService({ secret, signOptions: { algorithm: 'HS256', expiresIn: '2h' } });
  const tokens = options.emails.map((email) => signer.sign({ sub: idByEmail.get(email), email }));
  const baseUrl = `http://127.0.0.1:${port}/api`;

  return {
    pid: child.pid ?? 0,
    databaseUrl,
    async idle() {
      const limit = Date.now() + PEER_IDLE_CLOSE_MS * 10;
      for (;;) {
        const { rows } = await db.query<{ others: number }>(
          'SELECT count(*)::int AS others FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        if (rows[0].others === 0) return;
        if (Date.now() > limit) throw new Error(`the peer still holds ${rows[0].others} connections when idle`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async transfer(fromIndex, toEmail, amountMinor) {
      const response = await fetch(`${baseUrl}/transfers`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens[fromIndex]}` },
        body: JSON.stringify({ toEmail, amountMinor }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`peer POST /transfers answered ${response.status}: ${text}`);
    },
    async refusals() {
      const post = async (token: string | null, body: unknown): Promise<number> => {
        const response = await fetch(`${baseUrl}/transfers`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        await response.text();
        return response.status;
      };
      const payee = options.emails[1];
      const noToken = await post(null, { toEmail: payee, amountMinor: 1 });
      const malformedBody = await post(tokens[0], { toEmail: payee, amountMinor: -1, extra: true });
      const overdraft = await post(tokens[0], { toEmail: payee, amountMinor: options.balanceMinor * 10 });
      return {
        noToken,
        malformedBody,
        overdraft,
        ok: noToken === 401 && malformedBody === 400 && overdraft === 422,
      };
    },
    async check() {
      const [row] = (
        await db.query<Record<string, string>>(
          `SELECT (SELECT count(*) FROM peer_accounts) AS accounts,
                  (SELECT coalesce(sum(balance_minor), 0) FROM peer_accounts) AS balance_sum,
                  (SELECT count(*) FROM peer_accounts WHERE balance_minor < 0) AS negative,
                  (SELECT count(*) FROM peer_transfers) AS transfers,
                  (SELECT count(*) FROM peer_entries) AS entries,
                  (SELECT count(*) FROM (SELECT transfer_id FROM peer_entries GROUP BY transfer_id
                     HAVING sum(amount_minor) <> 0 OR count(*) <> 2) unbalanced) AS unbalanced`,
        )
      ).rows;
      const figures = {
        accounts: Number(row.accounts),
        balanceSumMinor: Number(row.balance_sum),
        expectedBalanceSumMinor: options.emails.length * options.balanceMinor,
        negativeBalances: Number(row.negative),
        transfers: Number(row.transfers),
        entries: Number(row.entries),
        unbalancedTransfers: Number(row.unbalanced),
      };
      return {
        ...figures,
        ok:
          figures.balanceSumMinor === figures.expectedBalanceSumMinor &&
          figures.negativeBalances === 0 &&
          figures.entries === 2 * figures.transfers &&
          figures.unbalancedTransfers === 0 &&
          figures.transfers > 0,
      };
    },
    async stop() {
      await db.end();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await onServer(options.adminDatabaseUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    },
  };
}
