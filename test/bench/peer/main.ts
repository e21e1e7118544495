import 'reflect-metadata';
import cluster from 'node:cluster';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { PEER_ENTITIES } from './entities.js';
import { PeerModule } from './transfers.js';

/**
 * The peer's process model mirrors the API's (services/api: a cluster primary forking WEB_CONCURRENCY API processes
 * that share one port): the primary creates the schema with TypeORM's `synchronize`, forks PEER_PROCESSES workers
 * and prints `PEER_READY <port>` once every one listens.
 */
const PORT = Number(process.env.PEER_PORT);
const PROCESSES = Number(process.env.PEER_PROCESSES ?? 1);

async function primary(): Promise<void> {
  const schema = new DataSource({
    type: 'postgres',
    url: process.env.PEER_DATABASE_URL,
    entities: PEER_ENTITIES,
    synchronize: true,
  });
  await schema.initialize();
  await schema.destroy();
  let listening = 0;
  for (let index = 0; index < PROCESSES; index += 1) {
    // KUPA_ROLE names the process for the bench's CPU accounting (test/bench/stats.ts processRole).
    const worker = cluster.fork({ KUPA_ROLE: 'api' });
    worker.on('message', (message: unknown) => {
      if (message === 'listening' && ++listening === PROCESSES) process.stdout.write(`PEER_READY ${PORT}\n`);
    });
    worker.on('exit', (code) => {
      process.stderr.write(`peer process ${worker.process.pid} exited with ${code}\n`);
      process.exit(1);
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.removeAllListeners('exit').kill('SIGTERM');
    process.exit(0);
  });
}

async function apiProcess(): Promise<void> {
  const app = await NestFactory.create(PeerModule, { logger: ['error'] });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.setGlobalPrefix('api');
  await app.listen(PORT, '127.0.0.1');
  process.send?.('listening');
}

(cluster.isPrimary ? primary() : apiProcess()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
