import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './platform/config';
import { runProcess } from './processes';

/**
 * The server's entry point (`npm start`): by `KUPA_ROLE` an API process, a worker, or both in one process (the
 * default), and with `WEB_CONCURRENCY` above 1 a primary forking that many API processes (docs/adr/0036).
 */
async function main(): Promise<void> {
  await runProcess(loadConfig());
}

main().catch((error: unknown) => {
  new Logger('Kupa').fatal(error);
  process.exit(1);
});
