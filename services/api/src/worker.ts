import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './platform/config';
import { runWorker } from './processes';

/**
 * The worker's entry point (`npm run worker`): the processors, sweeps, mail dispatcher and provisioning jobs without
 * HTTP, as `KUPA_ROLE=worker` runs them. Any number may run beside the API processes; each processor leads in one
 * process at a time under its advisory lock, each sweep runs once per period where its schedule was claimed, and
 * dispatchers share the mail outbox row by row (docs/adr/0036, docs/adr/0067).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.role === 'api')
    throw new Error('KUPA_ROLE=api contradicts the worker entry point: unset KUPA_ROLE or set it to worker');
  await runWorker({ ...config, role: 'worker' });
}

main().catch((error: unknown) => {
  new Logger('KupaWorker').fatal(error);
  process.exit(1);
});
