import 'reflect-metadata';
import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { AppModule } from './app.module';
import { openDatabase } from './platform/database/embedded-database';
import { loadConfig } from './platform/config';
import { readVersion } from './version';
import { CLI_COMMANDS, type CliCommand, type CliTarget, historyReplayRelaunch } from './cli.commands';

const HELP = `kupa — operations beside a running Kupa server

Usage: npx kupa <command> [options]

${CLI_COMMANDS.map((command) => `  ${command.usage.padEnd(58)} ${command.summary}`).join('\n')}

The CLI uses DATABASE_URL when set; otherwise it attaches to the embedded PostgreSQL running on KUPA_DATA_DIR
(./.kupa by default), or starts it for the duration of the command.`;

async function withApp<T>(work: (app: INestApplicationContext, target: CliTarget) => Promise<T>): Promise<T> {
  const config = { ...loadConfig(process.env, 'command-line'), demoData: false };
  const database = await openDatabase(config);
  const app = await NestFactory.createApplicationContext(
    AppModule.register({ config, databaseUrl: database.url, version: readVersion(), quiet: true }),
    { logger: ['error'] },
  );
  try {
    return await work(app, { databaseUrl: database.url, dataDir: config.dataDir });
  } finally {
    await app.close();
    await database.stop();
  }
}

/** A bare command (`kupa restore`) gets the database without the application, which would migrate it. */
async function withDatabase<T>(work: (target: CliTarget) => Promise<T>): Promise<T> {
  const config = { ...loadConfig(process.env, 'command-line'), demoData: false };
  const database = await openDatabase(config);
  try {
    return await work({ databaseUrl: database.url, dataDir: config.dataDir });
  } finally {
    await database.stop();
  }
}

function findCommand(words: string[]): { command: CliCommand; rest: string[] } | null {
  for (const command of CLI_COMMANDS) {
    if (command.words.every((word, index) => words[index] === word))
      return { command, rest: words.slice(command.words.length) };
  }
  return null;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(HELP);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    console.error(`Unknown command: ${argv.join(' ')}\n\n${HELP}`);
    return 2;
  }
  const relaunch = historyReplayRelaunch(found.command, process.execArgv, __filename, argv);
  if (relaunch) return runChild(relaunch);
  const { values, positionals } = parseArgs({
    args: found.rest,
    options: found.command.options,
    allowPositionals: true,
    strict: true,
  });
  const options = values as Record<string, string | boolean | undefined>;
  const command = found.command;
  if (command.bare) return withDatabase((target) => command.run(options, positionals, target));
  return withApp((app, target) => command.run(app, options, positionals, target));
}

/**
 * Runs this CLI again in a child Node with `args`, sharing the terminal; a SIGINT or SIGTERM sent to this process is
 * passed on, so the child still stops what it started (the embedded database) before both exit.
 */
function runChild(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
