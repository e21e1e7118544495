import type { INestApplicationContext } from '@nestjs/common';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * A second application context of the *built* API (`services/api/dist`) attached to a running server's database, as
 * `npm run worker` and the `kupa` CLI attach, but on a hand-moved clock and with no background work of its own: the
 * bench runs a sweep (the renewals) at an instant of its choosing while the server keeps serving and processing.
 *
 * It loads the build rather than these sources because Nest resolves constructor parameters from the decorator
 * metadata that only the TypeScript compiler emits; the bench runs under tsx (esbuild), which emits none. So the
 * build must be current: `npm run bench` builds first. Only the few exports below are touched, through narrow local
 * types, so that importing `@kupa/api/testing` still loads neither Nest nor TypeORM until this is called.
 */
export interface BuiltApi {
  /** Moves the context's clock; sweeps read "now" from it. */
  setClock(at: Date): void;
  /** Runs a sweep's passes until nothing due is left (`Schedules.sweepNow`); how many items they acted on. */
  sweepNow(name: string): Promise<number>;
  close(): Promise<void>;
}

export interface BuiltApiOptions {
  /** The running server's database. */
  databaseUrl: string;
  /** The running server's environment: its data directory (secrets), public address and settings. */
  env: Record<string, string>;
  /** The clock's first instant. */
  at: Date;
}

interface ManualClockLike {
  set(date: Date): void;
}

interface BuiltModules {
  AppModule: {
    register(options: { config: unknown; databaseUrl: string; version: string; clock: unknown; quiet: boolean }): never;
  };
  ManualClock: new (at: Date) => ManualClockLike;
  Schedules: abstract new (...args: never[]) => { sweepNow(name: string): Promise<number> };
  loadConfig(env: Record<string, string | undefined>): Record<string, unknown>;
  NestFactory: {
    createApplicationContext(module: never, options: { logger: string[] }): Promise<INestApplicationContext>;
  };
}

const API_ROOT = join(__dirname, '..', '..');

function loadBuiltModules(): BuiltModules {
  // Resolved from the API's package, so Nest, TypeORM and pg are the very instances the build uses.
  const load = createRequire(join(API_ROOT, 'package.json'));
  load('reflect-metadata');
  const dist = (path: string) => load(join(API_ROOT, 'dist', path)) as Record<string, unknown>;
  return {
    AppModule: dist('app.module.js').AppModule as BuiltModules['AppModule'],
    ManualClock: dist('platform/clock/index.js').ManualClock as BuiltModules['ManualClock'],
    Schedules: dist('platform/jobs/index.js').Schedules as BuiltModules['Schedules'],
    loadConfig: dist('platform/config/index.js').loadConfig as BuiltModules['loadConfig'],
    NestFactory: (load('@nestjs/core') as { NestFactory: BuiltModules['NestFactory'] }).NestFactory,
  };
}

export async function openBuiltApi(options: BuiltApiOptions): Promise<BuiltApi> {
  const built = loadBuiltModules();
  const config = {
    // The servers it runs beside use the sandboxes on their named database (test/support/kupa-server.ts).
    ...built.loadConfig({ KUPA_SANDBOX: '1', ...process.env, ...options.env, DATABASE_URL: options.databaseUrl }),
    // Never the demo data or the admin seeding of a first start: the server already did its own.
    demoData: false,
    adminEmail: null,
    adminPassword: null,
  };
  const clock = new built.ManualClock(options.at);
  const context = await built.NestFactory.createApplicationContext(
    built.AppModule.register({
      config,
      databaseUrl: options.databaseUrl,
      version: '0.0.0-bench',
      clock,
      quiet: true,
    }),
    { logger: ['error'] },
  );
  const schedules = context.get(built.Schedules);
  return {
    setClock: (at) => clock.set(at),
    sweepNow: (name) => schedules.sweepNow(name),
    close: () => context.close(),
  };
}
