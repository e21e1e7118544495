import { CLI_COMMANDS, type CliTarget } from '../cli.commands';
import type { TestApp } from './test-app';

/** Runs one `kupa` command in-process against the test app and captures what it prints. */
export async function kupa(testApp: TestApp, ...argv: string[]): Promise<{ code: number; output: string }> {
  return kupaOn({ databaseUrl: testApp.database.url, dataDir: testApp.config.dataDir }, testApp, ...argv);
}

/**
 * Runs one `kupa` command in-process on `target`: a bare command (`restore`) on the database alone, one that needs
 * the application with `testApp`'s.
 */
export async function kupaOn(
  target: CliTarget,
  testApp: TestApp | null,
  ...argv: string[]
): Promise<{ code: number; output: string }> {
  const command = CLI_COMMANDS.find((candidate) => candidate.words.every((word, index) => argv[index] === word));
  if (!command) throw new Error(`No command ${argv.join(' ')}`);
  const { parseArgs } = await import('node:util');
  const { values, positionals } = parseArgs({
    args: argv.slice(command.words.length),
    options: command.options,
    allowPositionals: true,
    strict: true,
  });
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')));
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')));
  try {
    const options = values as Record<string, string | boolean | undefined>;
    let code: number;
    if (command.bare) code = await command.run(options, positionals, target);
    else if (testApp) code = await command.run(testApp.app, options, positionals, target);
    else throw new Error(`kupa ${argv.join(' ')} needs an application`);
    return { code, output: lines.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
