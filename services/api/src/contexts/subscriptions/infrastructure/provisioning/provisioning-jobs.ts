import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * The work a subscription event asks of the streaming service. Parameters hold no password: `CREATE_ACCOUNT` and
 * `CHANGE_PASSWORD` read theirs from `ProvisioningSecrets` when they run, and `secretVersion` names the stored
 * password their event wrote (the newest is sent; those up to this version are forgotten once the service has it).
 * Instants are ISO-8601 strings.
 */
export type ProvisioningWork =
  | { operation: 'CREATE_ACCOUNT'; parameters: { login: string; expiresAt: string; secretVersion: number } }
  | { operation: 'EXTEND_ACCOUNT'; parameters: { login: string; expiresAt: string } }
  | { operation: 'CHANGE_LOGIN'; parameters: { login: string; newLogin: string } }
  | { operation: 'CHANGE_PASSWORD'; parameters: { login: string; secretVersion: number } }
  | { operation: 'DISABLE_ACCOUNT'; parameters: { login: string } };

export type ProvisioningOperation = ProvisioningWork['operation'];

export const PROVISIONING_OPERATIONS: readonly ProvisioningOperation[] = [
  'CREATE_ACCOUNT',
  'EXTEND_ACCOUNT',
  'CHANGE_LOGIN',
  'CHANGE_PASSWORD',
  'DISABLE_ACCOUNT',
];

/** What an event processor asks for. */
export type ProvisioningRequest = ProvisioningWork & {
  subscriptionId: string;
  /** The global position of the event that asked: the same event never yields two jobs. */
  causationEventId: string;
};

/** A job as the runner hands it to the outcome and secret ports. */
export type ProvisioningJob = ProvisioningRequest & {
  id: string;
  /** Attempts made at the service so far, this one included. */
  attempts: number;
};

/** A job that sends a stored password (`ProvisioningSecrets`), named by its parameters' `secretVersion`. */
export type PasswordJob = Extract<ProvisioningJob, { operation: 'CREATE_ACCOUNT' | 'CHANGE_PASSWORD' }>;

export function sendsStoredPassword(job: ProvisioningJob): job is PasswordJob {
  return job.operation === 'CREATE_ACCOUNT' || job.operation === 'CHANGE_PASSWORD';
}

export type ProvisioningJobStatus = 'PENDING' | 'DONE' | 'FAILED';

/**
 * Records a provisioning job inside the caller's transaction (an event processor's, so that the job and the
 * processor's checkpoint commit together). A second request with the same causing event changes nothing; returns
 * whether this call created the job.
 */
export async function enqueueProvisioning(
  manager: EntityManager,
  request: ProvisioningRequest,
  now: Date,
): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO provisioning_jobs (id, subscription_id, operation, parameters, causation_event_id, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6)
     ON CONFLICT (causation_event_id) DO NOTHING
     RETURNING id`,
    [
      randomUUID(),
      request.subscriptionId,
      request.operation,
      JSON.stringify(request.parameters),
      request.causationEventId,
      now,
    ],
  );
  return rows.length === 1;
}

/** The provisioning queue at one moment: jobs not finished yet and the age of the oldest. */
export interface ProvisioningQueueReading {
  pending: number;
  /** 0 when no job waits. */
  oldestPendingSeconds: number;
}

/** Reads the queue through the index of pending jobs; `now` is the application's clock, which wrote `created_at`. */
export async function readProvisioningQueue(dataSource: DataSource, now: Date): Promise<ProvisioningQueueReading> {
  const rows: { pending: number; oldest: Date | null }[] = await dataSource.query(
    `SELECT count(*)::int AS pending, min(created_at) AS oldest FROM provisioning_jobs WHERE status = 'PENDING'`,
  );
  const oldest = rows[0]?.oldest ?? null;
  return {
    pending: rows[0]?.pending ?? 0,
    oldestPendingSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000),
  };
}
