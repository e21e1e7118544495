import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a command ended: appended events, decided nothing, refused by a rule, or failed (a bug, a lost conflict). */
export type CommandOutcome = 'committed' | 'unchanged' | 'rejected' | 'failed';

/** How the mail dispatcher's attempt at one mail ended. */
export type MailOutcome = 'sent' | 'skipped' | 'failed';
/** What became of one attempt at a Telegram message (ADR 0104). */
export type TelegramOutcome = 'sent' | 'retry-after' | 'blocked' | 'failed' | 'skipped' | 'held';

/** How one call to the streaming service's provisioning API ended (`secret_missing`: not made, no password). */
export type ProvisioningCallOutcome =
  'succeeded' | 'transient_failure' | 'rejected' | 'login_taken' | 'secret_missing' | 'error';

/** The read replica's state at its last check (docs/adr/0113-read-replicas.md). */
export interface ReplicaGauges {
  up: Gauge;
  lagSeconds: Gauge;
  lagBytes: Gauge;
}

/** A reading the registry takes from elsewhere at each scrape (the pool, the processors' lag, the queues). */
export type ScrapeReading = (metrics: Metrics) => Promise<void> | void;

/**
 * The application's Prometheus metrics (docs/adr/0031-health-metrics-logs.md), in a registry of its own so that
 * several applications in one process (the tests) keep apart. Labels are bounded sets: route patterns, processor and
 * loop names, operations and outcomes; never a user, an id, an address or an amount.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, from arrival to the last byte sent',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'kupa_commands_total',
    help: 'Commands through the command pipeline, by the route or background loop that ran them and how they ended',
    labelNames: ['command', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly commandDuration = new Histogram({
    name: 'kupa_command_duration_seconds',
    help: 'Time from locking the streams to the commit or the refusal, retries included',
    labelNames: ['command'] as const,
    registers: [this.registry],
  });

  readonly commandBatchSize = new Histogram({
    name: 'kupa_command_batch_size',
    help: 'Commands per batch of group commit (docs/adr/0130), a batch of one included',
    buckets: [1, 2, 3, 4, 6, 8, 12, 16],
    registers: [this.registry],
  });

  readonly commandQueueWait = new Histogram({
    name: 'kupa_command_queue_wait_seconds',
    help: "Time a groupable command waited in its process's queue for a batch to take it",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  readonly commandBatchFallbacks = new Counter({
    name: 'kupa_command_batch_fallbacks_total',
    help: 'Batches rolled back by a failure after their writes began, whose commands then ran again one by one',
    registers: [this.registry],
  });

  readonly commandConflicts = new Counter({
    name: 'kupa_command_conflicts_total',
    help: 'Version conflicts met by commands (each one is decided again while the retry budget lasts)',
    labelNames: ['command'] as const,
    registers: [this.registry],
  });

  readonly transactionRestarts = new Counter({
    name: 'kupa_transaction_restarts_total',
    help: 'Event store transactions started again: after a deadlock or a serialization failure, or to lock in order a stream another transaction created meanwhile',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly commandRetries = new Counter({
    name: 'kupa_command_retries_total',
    help: 'Commands decided again after a version conflict',
    labelNames: ['command'] as const,
    registers: [this.registry],
  });

  readonly processorLagEvents = new Gauge({
    name: 'kupa_processor_lag_events',
    help: "Events after the processor's checkpoint, not handled yet (counted up to a cap)",
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });

  readonly processorLagSeconds = new Gauge({
    name: 'kupa_processor_lag_seconds',
    help: 'Age of the oldest event the processor has not handled yet; 0 when it is caught up',
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });

  readonly eventStoreCommitPosition = new Gauge({
    name: 'kupa_event_store_commit_position',
    help: 'The newest commit position: how far processors can read (each transaction is numbered as it commits)',
    registers: [this.registry],
  });

  readonly processorCheckpointPosition = new Gauge({
    name: 'kupa_processor_checkpoint_position',
    help: "The commit position of the last commit the processor passed; the head's minus this is how many commits behind it is",
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });

  readonly databaseReady = new Gauge({
    name: 'kupa_database_ready',
    help: 'Whether the database answered and every migration was applied at the scrape (1) or not (0): what API readiness answers for',
    registers: [this.registry],
  });

  readonly processorBehind = new Gauge({
    name: 'kupa_processor_behind',
    help: 'Whether the processor is further behind than PROCESSOR_LAG_ALERT_EVENTS or PROCESSOR_LAG_ALERT_SECONDS (1) or not (0)',
    labelNames: ['processor'] as const,
    registers: [this.registry],
  });

  readonly mailOutboxUnsent = new Gauge({
    name: 'kupa_mail_outbox_unsent',
    help: 'Mails in the outbox not sent yet (due now or waiting for a retry)',
    registers: [this.registry],
  });

  readonly mailOutboxOldestUnsentSeconds = new Gauge({
    name: 'kupa_mail_outbox_oldest_unsent_seconds',
    help: 'Age of the oldest mail not sent yet; 0 when every mail went out',
    registers: [this.registry],
  });

  readonly telegramOutboxUnsent = new Gauge({
    name: 'kupa_telegram_outbox_unsent',
    help: 'Telegram messages not sent yet (due now, held for quiet hours or waiting for a retry)',
    registers: [this.registry],
  });

  readonly telegramOutboxOldestUnsentSeconds = new Gauge({
    name: 'kupa_telegram_outbox_oldest_unsent_seconds',
    help: 'Age of the oldest Telegram message not sent yet; 0 when every message went out or was skipped',
    registers: [this.registry],
  });

  readonly provisioningJobsPending = new Gauge({
    name: 'kupa_provisioning_jobs_pending',
    help: 'Provisioning jobs not finished yet (due now or waiting for a retry)',
    registers: [this.registry],
  });

  readonly provisioningOldestPendingSeconds = new Gauge({
    name: 'kupa_provisioning_oldest_pending_seconds',
    help: 'Age of the oldest provisioning job not finished yet; 0 when none waits',
    registers: [this.registry],
  });

  readonly poolConnections = new Gauge({
    name: 'kupa_db_pool_connections',
    help: 'Database connections held by the pool, by state',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly poolMaxConnections = new Gauge({
    name: 'kupa_db_pool_max_connections',
    help: 'The most connections the pool opens',
    registers: [this.registry],
  });

  readonly poolWaiting = new Gauge({
    name: 'kupa_db_pool_waiting_requests',
    help: 'Queries waiting for a free pool connection',
    registers: [this.registry],
  });

  readonly mails = new Counter({
    name: 'kupa_mails_total',
    help: 'Mails the dispatcher handled, by outcome (a failed mail is tried again later)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly telegramMessages = new Counter({
    name: 'kupa_telegram_messages_total',
    help: 'Telegram messages the sender handled, by outcome (retry-after and failed are tried again later)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly provisioningCalls = new Counter({
    name: 'kupa_provisioning_calls_total',
    help: "Calls to the streaming service's provisioning API, by operation and outcome",
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly heavyReads = new Counter({
    name: 'kupa_heavy_reads_total',
    help: 'Heavy reads (searches, export, dashboard, statements, history, activity log) by read and the database that served them',
    labelNames: ['read', 'source'] as const,
    registers: [this.registry],
  });

  readonly replicaFallbacks = new Counter({
    name: 'kupa_replica_fallbacks_total',
    help: "Heavy reads sent to the primary although a replica is configured, by reason: the reader's own write not replayed yet, the replica down, too far behind, or its query failed",
    labelNames: ['read', 'reason'] as const,
    registers: [this.registry],
  });

  readonly databaseUnavailable = new Counter({
    name: 'kupa_database_unavailable_total',
    help: 'Requests answered 503 because the database was out of connections (busy) or out of reach (down), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly readings: ScrapeReading[] = [];
  private replica: ReplicaGauges | null = null;

  constructor(options: { processMetrics?: boolean } = {}) {
    // Node's own figures (CPU, memory, event-loop delay, GC) under their usual names, so stock dashboards fit.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** Registers a reading taken before each scrape; a failed reading leaves its gauges as they were. */
  onScrape(reading: ScrapeReading): void {
    this.readings.push(reading);
  }

  /**
   * The text exposition format Prometheus reads. The readings run one after another: run together, the pool's
   * reading would count the other readings' own queries as waiting for a connection.
   */
  async scrape(): Promise<string> {
    for (const reading of this.readings) await Promise.resolve(reading(this)).catch(() => undefined);
    return this.registry.metrics();
  }

  /**
   * The read replica's gauges, registered on first use: only a process with `DATABASE_REPLICA_URL` asks, so that a
   * deployment without a replica shows no `kupa_replica_up 0` to alert on (docs/adr/0113-read-replicas.md).
   */
  replicaGauges(): ReplicaGauges {
    this.replica ??= {
      up: new Gauge({
        name: 'kupa_replica_up',
        help: 'Whether the read replica (DATABASE_REPLICA_URL) answered its last check as a standby (1) or not (0)',
        registers: [this.registry],
      }),
      lagSeconds: new Gauge({
        name: 'kupa_replica_lag_seconds',
        help: 'How long ago the primary had written the oldest WAL the replica has not replayed yet; 0 when caught up',
        registers: [this.registry],
      }),
      lagBytes: new Gauge({
        name: 'kupa_replica_lag_bytes',
        help: "WAL bytes between the primary's write position and the replica's replay position at the last check",
        registers: [this.registry],
      }),
    };
    return this.replica;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  recordMail(outcome: MailOutcome): void {
    this.mails.inc({ outcome });
  }

  recordTelegram(outcome: TelegramOutcome): void {
    this.telegramMessages.inc({ outcome });
  }

  recordProvisioningCall(operation: string, outcome: ProvisioningCallOutcome): void {
    this.provisioningCalls.inc({ operation, outcome });
  }
}
