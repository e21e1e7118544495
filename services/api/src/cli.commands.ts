import { type INestApplicationContext } from '@nestjs/common';
import { checkEmail, checkPassword, ERROR_CATALOGUE, type RuleIssue } from '@kupa/proto';
import type { ParseArgsConfig } from 'node:util';
import { DataSource } from 'typeorm';
import { AdminAccounts } from './contexts/identity';
import {
  backupDatabase,
  backupLogically,
  BackupRefused,
  defaultBackupFile,
  pgDumpCandidates,
  RestoreRefused,
  restoreLogically,
} from './operations/backup';
import {
  type LedgerVerification,
  LedgerVerifier,
  type SinceCheckpointVerification,
  SinceCheckpointVerifier,
} from './operations/verify';
import { APP_CONFIG, type AppConfig, repositoryRoot } from './platform/config';
import { DEFAULT_EVENT_PARTITION_SIZE, EventTypeRegistry, partitionEvents } from './platform/event-store';
import {
  DEFAULT_REPUBLISH_BATCH_SIZE,
  DEFAULT_REPUBLISH_PRODUCERS,
  KafkaRepublisher,
  MAX_REPUBLISH_PRODUCERS,
  type RepublishOutcome,
} from './platform/kafka';
import { InlineProjectionRegistry } from './platform/projections';
import { ALL_MIGRATIONS } from './schema';

/** The database the command runs on, and the data directory (the default home of backups). */
export interface CliTarget {
  databaseUrl: string;
  dataDir: string;
}

interface CliCommandShape {
  words: string[];
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Replays the whole history in this process: `cli.ts` runs it with a larger young generation (ADR 0043). */
  replaysHistory?: boolean;
}

/** One `kupa` command: the words that name it, its options (node:util parseArgs) and what it runs. */
export interface AppCliCommand extends CliCommandShape {
  bare?: false;
  run(
    app: INestApplicationContext,
    values: Record<string, string | boolean | undefined>,
    positionals: string[],
    target: CliTarget,
  ): Promise<number>;
}

/**
 * A command that runs on the bare database, without opening the application: opening it applies every migration of
 * this build, and `kupa restore` must create the schema only up to the backup's.
 */
export interface BareCliCommand extends CliCommandShape {
  bare: true;
  run(values: Record<string, string | boolean | undefined>, positionals: string[], target: CliTarget): Promise<number>;
}

export type CliCommand = AppCliCommand | BareCliCommand;

/**
 * The young generation (V8's semi-space, in MiB) of a command that replays the whole history. Each batch of decoded
 * events outlives a few collections of the default 16 MiB space and is copied each time; at 64 MiB most of it dies
 * young. Measured on `ledger verify` over two million events: 150 → 124 s (docs/benchmarks.md).
 */
export const HISTORY_REPLAY_SEMI_SPACE_MIB = 64;

/**
 * The Node arguments that run `script` again for a history-replaying command with the larger young generation, or
 * null when this process should run it itself: the command replays nothing, or a semi-space size was already given
 * (by the caller, or by this same step in the parent).
 */
export function historyReplayRelaunch(
  command: Pick<CliCommand, 'replaysHistory'>,
  execArgv: readonly string[],
  script: string,
  argv: readonly string[],
): string[] | null {
  if (!command.replaysHistory) return null;
  if (execArgv.some((argument) => argument.startsWith('--max-semi-space-size'))) return null;
  return [...execArgv, `--max-semi-space-size=${HISTORY_REPLAY_SEMI_SPACE_MIB}`, script, ...argv];
}

/**
 * Exit codes: 0 clean, 1 the check found differences (or the work failed), 2 the command line was wrong, 3 there was
 * no checkpoint for `ledger verify --since-checkpoint` to continue (a full verify writes the first; ADR 0111).
 */
const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_NO_CHECKPOINT = 3;

/** Differences printed by default; `--max-differences` shows more (the verifier keeps the first thousand). */
const DIFFERENCES_SHOWN_DEFAULT = 20;

function ruleMessage(issue: RuleIssue): string {
  let message: string = ERROR_CATALOGUE[issue.error].en;
  for (const [name, value] of Object.entries(issue.params ?? {})) message = message.replace(`{${name}}`, String(value));
  return message;
}

function perSecond(count: number, ms: number): number {
  return ms > 0 ? Math.round((count * 1000) / ms) : count;
}

const createAdmin: AppCliCommand = {
  words: ['users', 'create-admin'],
  usage: 'users create-admin --email E --password P',
  summary: 'create an ACTIVE admin, or make an existing user one with this password',
  options: { email: { type: 'string' }, password: { type: 'string' } },
  async run(app, values) {
    const email = typeof values.email === 'string' ? values.email.trim() : '';
    const password = typeof values.password === 'string' ? values.password : '';
    const issue = checkEmail(email) ?? checkPassword(password);
    if (!email || !password || issue) {
      console.error(issue ? `Refused: ${ruleMessage(issue)}` : 'Usage: kupa users create-admin --email E --password P');
      return EXIT_USAGE;
    }
    const outcome = await app.get(AdminAccounts).createAdmin(email, password);
    console.log(
      `${outcome.created ? 'Created' : 'Updated'} admin ${email.toLowerCase()} (${outcome.userUuid}), ACTIVE`,
    );
    return EXIT_OK;
  },
};

function printDifferences(report: Pick<LedgerVerification, 'differences' | 'differenceCount'>, shown: number): void {
  for (const difference of report.differences.slice(0, shown)) {
    const values =
      difference.expected !== undefined ? ` (expected ${difference.expected}, actual ${difference.actual})` : '';
    console.log(`  [${difference.source}] ${difference.subject}: ${difference.message}${values}`);
  }
  if (report.differenceCount > shown)
    console.log(`  … and ${report.differenceCount - shown} more (--max-differences N shows more)`);
}

/** The checkpoint's hash is printed so an operator can keep it outside the database it vouches for (ADR 0111). */
function printCheckpoint(checkpoint: LedgerVerification['checkpoint']): void {
  if (!checkpoint) return;
  if (checkpoint.written)
    console.log(
      `  checkpoint ${checkpoint.header.checkpointId} (${checkpoint.header.kind}) at commit position ` +
        `${checkpoint.header.commitPosition}, hash ${checkpoint.header.hash}`,
    );
  else console.log(`  no checkpoint written: ${checkpoint.reason}`);
}

function printSinceCheckpoint(report: SinceCheckpointVerification, shown: number): void {
  const { counts } = report;
  console.log(
    report.ok
      ? 'Ledger verified since the checkpoint: no differences.'
      : `Ledger verification since the checkpoint FAILED: ${report.differenceCount} difference(s).`,
  );
  if (report.from)
    console.log(
      `  from checkpoint ${report.from.checkpointId} at commit position ${report.from.commitPosition} ` +
        `(hash ${report.from.hash}) to ${report.commitPosition ?? '?'}`,
    );
  console.log(
    `  ${counts.eventsReplayed} events replayed (ledger ${counts.ledgerEvents}) in ${counts.streamsTouched} streams, ` +
      `${counts.transactions} transactions, ${counts.userAccounts} user accounts, ${counts.walletSnapshots} wallet snapshots`,
  );
  console.log(
    `  total ${Math.round(report.totalMs)} ms (${perSecond(counts.eventsReplayed, report.totalMs)} events/s)`,
  );
  printDifferences(report, shown);
  printCheckpoint(report.checkpoint);
}

function printVerification(report: LedgerVerification, shown: number): void {
  const { counts } = report;
  console.log(
    report.ok
      ? 'Ledger verified: no differences.'
      : `Ledger verification FAILED: ${report.differenceCount} difference(s).`,
  );
  console.log(
    `  events ${counts.events} (ledger ${counts.ledgerEvents}) in ${counts.streams} streams, ${counts.transactions} transactions, ` +
      `${counts.payments} payments, ${counts.ledgerEntries} ledger entries, ${counts.userAccounts} user accounts, ` +
      `${counts.walletSnapshots} wallet snapshots, ${counts.otherReadModelRows} rows of other read models`,
  );
  console.log(
    `  replay ${Math.round(report.replayMs)} ms, total ${Math.round(report.totalMs)} ms (${perSecond(counts.events, report.totalMs)} events/s)`,
  );
  printDifferences(report, shown);
  printCheckpoint(report.checkpoint);
}

const verifyLedger: AppCliCommand = {
  words: ['ledger', 'verify'],
  usage: 'ledger verify [--since-checkpoint] [--max-differences N] [--json]',
  summary:
    'replay every event; check balances, zero-sum, hash chains and every read model; write a checkpoint ' +
    '(--since-checkpoint: only the events after the newest one)',
  options: {
    'max-differences': { type: 'string' },
    json: { type: 'boolean' },
    'since-checkpoint': { type: 'boolean' },
  },
  replaysHistory: true,
  async run(app, values) {
    const shown =
      values['max-differences'] === undefined ? DIFFERENCES_SHOWN_DEFAULT : Number(values['max-differences']);
    if (!Number.isInteger(shown) || shown < 0) {
      console.error('--max-differences takes a whole number');
      return EXIT_USAGE;
    }
    if (values['since-checkpoint']) {
      const since = await new SinceCheckpointVerifier(app.get(DataSource)).verify();
      if (values.json) console.log(JSON.stringify({ ...since, differences: since.differences.slice(0, shown) }));
      else if (since.outcome === 'no-checkpoint')
        console.error('No verified checkpoint to continue: run a full `kupa ledger verify` first; it writes one.');
      else printSinceCheckpoint(since, shown);
      return since.outcome === 'no-checkpoint' ? EXIT_NO_CHECKPOINT : since.ok ? EXIT_OK : EXIT_FAILED;
    }
    const verifier = new LedgerVerifier(app.get(DataSource), app.get(InlineProjectionRegistry));
    const report = await verifier.verify({ writeCheckpoint: true });
    if (values.json) console.log(JSON.stringify({ ...report, differences: report.differences.slice(0, shown) }));
    else printVerification(report, shown);
    return report.ok ? EXIT_OK : EXIT_FAILED;
  },
};

const rebuildProjections: AppCliCommand = {
  words: ['projections', 'rebuild'],
  usage: 'projections rebuild [name] [--json]',
  summary: 'rebuild one inline read model (or all) from the events',
  options: { json: { type: 'boolean' } },
  replaysHistory: true,
  async run(app, values, positionals) {
    const registry = app.get(InlineProjectionRegistry);
    const names = registry.all().map((projection) => projection.name);
    const [name, ...extra] = positionals;
    if (extra.length > 0 || (name !== undefined && !names.includes(name))) {
      console.error(`Unknown projection ${[name, ...extra].join(' ')}; known: ${names.join(', ')}`);
      return EXIT_USAGE;
    }
    const started = performance.now();
    const report = await registry.rebuild(name);
    const elapsedMs = performance.now() - started;
    const eventsPerSecond = perSecond(report.eventsReplayed, elapsedMs);
    if (values.json) {
      console.log(JSON.stringify({ ...report, elapsedMs: Math.round(elapsedMs), eventsPerSecond }));
    } else {
      console.log(
        `Rebuilt ${report.projections.join(', ')} from ${report.eventsReplayed} events in ${Math.round(elapsedMs)} ms (${eventsPerSecond} events/s)`,
      );
    }
    return EXIT_OK;
  },
};

const listProjections: AppCliCommand = {
  words: ['projections', 'list'],
  usage: 'projections list',
  summary: 'name every inline read model that rebuild accepts',
  options: {},
  async run(app) {
    for (const projection of app.get(InlineProjectionRegistry).all()) console.log(projection.name);
    return EXIT_OK;
  },
};

const BACKUP_FORMATS = ['kupa', 'pg_dump'] as const;

const backup: AppCliCommand = {
  words: ['backup'],
  usage: 'backup [--out FILE] [--format kupa|pg_dump] [--pg-dump PATH] [--json]',
  summary: 'back the database up into a file readable by its owner only (for kupa restore); README, Production',
  options: {
    out: { type: 'string' },
    format: { type: 'string' },
    'pg-dump': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(_app, values, _positionals, target) {
    const named = values['pg-dump'];
    // Naming a pg_dump asks for its format; Kupa's own needs no client tools (ADR 0065).
    const format = typeof values.format === 'string' ? values.format : typeof named === 'string' ? 'pg_dump' : 'kupa';
    if (!(BACKUP_FORMATS as readonly string[]).includes(format)) {
      console.error(`--format must be one of ${BACKUP_FORMATS.join(', ')}, got ${format}`);
      return EXIT_USAGE;
    }
    const file =
      typeof values.out === 'string'
        ? values.out
        : defaultBackupFile(target.dataDir, new Date(), format === 'kupa' ? 'kupa' : 'pg_dump');
    try {
      if (format === 'kupa') {
        const result = await backupLogically({ databaseUrl: target.databaseUrl, file });
        if (values.json) console.log(JSON.stringify(result));
        else
          console.log(
            `Backed up ${result.rows} rows of ${result.tables} tables and ${result.sequences} sequences ` +
              `(${result.events} events, last position ${result.lastGlobalPosition ?? 'none'}; schema at ` +
              `${result.migrations} migrations) to ${result.file}, ${result.bytes} bytes, from PostgreSQL ` +
              `${result.serverVersion} in ${result.elapsedMs} ms; restore with kupa restore ${result.file}`,
          );
        return EXIT_OK;
      }
      const result = await backupDatabase({
        databaseUrl: target.databaseUrl,
        file,
        pgDumpCandidates: typeof named === 'string' ? [named] : pgDumpCandidates(repositoryRoot()),
      });
      if (values.json) console.log(JSON.stringify(result));
      else
        console.log(
          `Backed up ${result.events} events (last position ${result.lastGlobalPosition ?? 'none'}) to ${result.file}, ` +
            `${result.bytes} bytes, with ${result.pgDump.path} ${result.pgDump.version} from PostgreSQL ` +
            `${result.serverVersion} in ${result.elapsedMs} ms`,
        );
      return EXIT_OK;
    } catch (error) {
      if (!(error instanceof BackupRefused)) throw error;
      console.error(error.message);
      return EXIT_FAILED;
    }
  },
};

const restore: BareCliCommand = {
  words: ['restore'],
  usage: 'restore FILE [--json]',
  summary: 'restore a kupa backup into an empty database, then run kupa ledger verify on it',
  options: { json: { type: 'boolean' } },
  bare: true,
  async run(values, positionals, target) {
    if (positionals.length !== 1) {
      console.error('kupa restore takes one file: a backup written by kupa backup');
      return EXIT_USAGE;
    }
    try {
      const result = await restoreLogically({
        databaseUrl: target.databaseUrl,
        file: positionals[0],
        migrations: ALL_MIGRATIONS,
      });
      if (values.json) console.log(JSON.stringify(result));
      else
        console.log(
          `Restored ${result.rows} rows of ${result.tables} tables and ${result.sequences} sequences from ` +
            `${result.file} (schema at ${result.migrations} migrations) in ${result.elapsedMs} ms; ` +
            'now run kupa ledger verify',
        );
      return EXIT_OK;
    } catch (error) {
      if (!(error instanceof RestoreRefused)) throw error;
      console.error(error.message);
      return EXIT_FAILED;
    }
  },
};

/** `--to-position`, `--batch-size` and `--producers`: whole numbers, or a usage error. */
export function republishArguments(
  values: Record<string, string | boolean | undefined>,
): { topicPrefix: string; toPosition?: string; batchSize?: number; producers?: number } | { usage: string } {
  const topicPrefix = values['topic-prefix'];
  if (typeof topicPrefix !== 'string' || !/^[A-Za-z0-9._-]{1,100}$/.test(topicPrefix))
    return { usage: '--topic-prefix P is required: letters, digits, ".", "_" and "-", at most 100' };
  const toPosition = values['to-position'];
  if (toPosition !== undefined && (typeof toPosition !== 'string' || !/^\d{1,18}$/.test(toPosition)))
    return { usage: '--to-position takes a commit position (a whole number)' };
  const batchSize = values['batch-size'];
  if (batchSize !== undefined && (typeof batchSize !== 'string' || !/^\d{1,6}$/.test(batchSize)))
    return { usage: '--batch-size takes a whole number' };
  const producers = values.producers;
  if (
    producers !== undefined &&
    (typeof producers !== 'string' ||
      !/^\d{1,2}$/.test(producers) ||
      Number(producers) < 1 ||
      Number(producers) > MAX_REPUBLISH_PRODUCERS)
  )
    return { usage: `--producers takes a whole number from 1 to ${MAX_REPUBLISH_PRODUCERS}` };
  return {
    topicPrefix,
    ...(toPosition === undefined ? {} : { toPosition }),
    ...(batchSize === undefined ? {} : { batchSize: Number(batchSize) }),
    ...(producers === undefined ? {} : { producers: Number(producers) }),
  };
}

/** How often the republish says where it is, on standard error (the result alone goes to standard output). */
const REPUBLISH_PROGRESS_MS = 5_000;

const republishEvents: AppCliCommand = {
  words: ['events', 'republish'],
  usage:
    `events republish --topic-prefix P [--to-position N] [--batch-size N, default ${DEFAULT_REPUBLISH_BATCH_SIZE}] ` +
    `[--producers N, 1 to ${MAX_REPUBLISH_PRODUCERS}, default ${DEFAULT_REPUBLISH_PRODUCERS}] [--json]`,
  summary:
    'send the history to Kafka topics of another prefix for a new consumer, with N producer threads; a restart ' +
    'continues (ADR 0116, 0124)',
  options: {
    'topic-prefix': { type: 'string' },
    'to-position': { type: 'string' },
    'batch-size': { type: 'string' },
    producers: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(app, values) {
    const parsed = republishArguments(values);
    if ('usage' in parsed) {
      console.error(parsed.usage);
      return EXIT_USAGE;
    }
    const kafka = app.get<AppConfig>(APP_CONFIG).kafka;
    if (!kafka) {
      console.error('KAFKA_BROKERS is not set: the republish sends to the brokers the live publisher uses');
      return EXIT_USAGE;
    }
    if (parsed.topicPrefix === kafka.topicPrefix) {
      console.error(
        `--topic-prefix ${parsed.topicPrefix} is the live publisher's (KAFKA_TOPIC_PREFIX): a replay goes to topics of its own`,
      );
      return EXIT_USAGE;
    }
    const republisher = new KafkaRepublisher(app.get(DataSource), app.get(EventTypeRegistry), {
      ...kafka,
      clientId: `${kafka.clientId}-republish`,
    });
    // Ctrl-C or a SIGTERM stops after the step in flight, with its position stored.
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let said = performance.now();
    let outcome: RepublishOutcome;
    try {
      outcome = await republisher.republish({
        ...parsed,
        signal: stop.signal,
        onProgress: (run) => {
          if (values.json || performance.now() - said < REPUBLISH_PROGRESS_MS) return;
          said = performance.now();
          console.error(`  at ${run.commitPosition} of ${run.toPosition}, ${run.eventsSent} events sent`);
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (outcome.outcome === 'refused') {
      console.error(outcome.reason);
      return EXIT_FAILED;
    }
    const eventsPerSecond = perSecond(outcome.sentNow, outcome.elapsedMs);
    if (values.json)
      console.log(JSON.stringify({ ...outcome, elapsedMs: Math.round(outcome.elapsedMs), eventsPerSecond }));
    else
      console.log(
        `${outcome.outcome === 'done' ? 'Republished' : 'Stopped republishing'} to ${outcome.run.topicPrefix}*: ` +
          `${outcome.sentNow} events now in ${Math.round(outcome.elapsedMs)} ms (${eventsPerSecond} events/s), ` +
          `${outcome.run.eventsSent} in all, up to commit position ${outcome.run.commitPosition} of ` +
          `${outcome.run.toPosition}` +
          (outcome.outcome === 'done' ? '' : '; run it again to continue'),
      );
    return EXIT_OK;
  },
};

const partitionEventsCommand: AppCliCommand = {
  words: ['events', 'partition'],
  usage: `events partition [--size POSITIONS, default ${DEFAULT_EVENT_PARTITION_SIZE}] [--json]`,
  summary:
    'partition the events table by position while the site runs, or (already partitioned) make the partitions ' +
    'ahead; ADR 0114',
  options: { size: { type: 'string' }, json: { type: 'boolean' } },
  async run(app, values) {
    // Unnamed: the default for the first run, the newest partition's width for the partitions a later run makes.
    const size = values.size === undefined ? undefined : Number(values.size);
    if (size !== undefined && (!Number.isSafeInteger(size) || size < 1)) {
      console.error('--size takes a whole number of positions per partition');
      return EXIT_USAGE;
    }
    const report = await partitionEvents(app.get(DataSource), {
      partitionSize: size,
      onPhase: (phase, { boundary }) => {
        if (!values.json) console.log(`${phase} (the first partition ends before position ${boundary})`);
      },
    });
    if (values.json) console.log(JSON.stringify(report));
    else if (!report.partitionedNow)
      console.log(
        `Events are partitioned already; ${report.partitionsMade.length} partitions made ahead, ` +
          `${report.partitions.length} in all`,
      );
    else
      console.log(
        `Events partitioned: the old table is ${report.partitions[0].name} below position ${report.boundary}, ` +
          `${report.partitions.length} partitions in all; CHECK validated in ${report.validateMs} ms, ` +
          `swapped under the lock in ${report.swapMs} ms (${report.lockRetries} lock waits given up and retried)`,
      );
    return EXIT_OK;
  },
};

const migrate: AppCliCommand = {
  words: ['migrate'],
  usage: 'migrate',
  summary: 'apply pending database migrations and exit (deployments run it before the API)',
  options: {},
  async run(app) {
    // Opening the application applied them already (every process does on start); this says where the schema is.
    const dataSource = app.get(DataSource);
    const table = dataSource.options.migrationsTableName ?? 'migrations';
    const [row] = await dataSource.query<{ applied: string; last: string | null }[]>(
      `SELECT count(*)::text AS applied, max(name) AS last FROM "${table}"`,
    );
    console.log(`Database schema up to date: ${row.applied} migrations applied, the last ${row.last ?? 'none'}`);
    return EXIT_OK;
  },
};

export const CLI_COMMANDS: CliCommand[] = [
  createAdmin,
  verifyLedger,
  rebuildProjections,
  listProjections,
  backup,
  restore,
  republishEvents,
  migrate,
  partitionEventsCommand,
];
