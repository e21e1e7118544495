import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import type { AppConfig } from '../config';
import { currentLogContext } from './log-context';
import { type LogFormat, prettyDestination } from './pretty-log';

/** `LOG_LEVEL` (Nest's names, kept from before the JSON logs) as pino's levels. */
const PINO_LEVEL: Record<AppConfig['logLevel'], Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Field names whose values never reach the log, wherever an object handed to the logger carries them. The code logs
 * no such field on purpose; this catches the object someone logs whole by mistake. A secret inside a message string
 * is not caught here: messages name operations and ids, and `log-hygiene.api-spec.ts` greps a whole flow's output.
 */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'enrolmentToken',
  'secret',
  'apiKey',
  'authorization',
  'cookie',
  'signature',
  'otp',
];
const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]);

export interface JsonLogOptions {
  level: AppConfig['logLevel'] | 'silent';
  /** Where lines go: standard output unless told otherwise (tests capture them). */
  destination?: DestinationStream;
  /** JSON lines (the default), or readable lines for a terminal (`pretty-log.ts`). */
  format?: LogFormat;
  /** ANSI colours in pretty lines: only on a terminal, never with NO_COLOR. */
  colour?: boolean;
}

/**
 * One JSON object per line: `level` by name, an ISO `time`, `msg`, the `context` (the class or area that logs), and
 * the `requestId` of the request the line belongs to, or the `operation` of the background loop that logged it. In
 * the pretty format the same record, redacted alike, is written as one readable line instead.
 */
export function createPinoLogger(options: JsonLogOptions): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level: options.level === 'silent' ? 'silent' : PINO_LEVEL[options.level],
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const context = currentLogContext();
        if (!context) return {};
        if (context.requestId) return { requestId: context.requestId };
        return context.operation ? { operation: context.operation } : {};
      },
    },
    options.format === 'pretty' ? prettyDestination(destination, { colour: options.colour ?? false }) : destination,
  );
}

type Fields = Record<string, unknown>;

/**
 * Nest's start-up inventory: a line per module, controller and route (some 170 of them). Useful when a route seems
 * missing, noise at every start otherwise, so it is written at debug (`LOG_LEVEL=debug` shows it).
 */
const START_UP_INVENTORY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's logger port over pino: every `new Logger('Context')` in the code, and Nest's own start-up lines, come out
 * as JSON (or, on a terminal, as pretty lines of the same records). Nest calls `log(message, context)` and `error(message, stack, context)`; a message may also be an object
 * of fields with its text in `msg`.
 */
export class JsonLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  static create(options: JsonLogOptions): JsonLogger {
    return new JsonLogger(createPinoLogger(options));
  }

  log(message: unknown, ...parameters: unknown[]): void {
    const context = parameters[parameters.length - 1];
    this.write(typeof context === 'string' && START_UP_INVENTORY.has(context) ? 'debug' : 'info', message, parameters);
  }

  error(message: unknown, ...parameters: unknown[]): void {
    this.write('error', message, parameters, true);
  }

  warn(message: unknown, ...parameters: unknown[]): void {
    this.write('warn', message, parameters);
  }

  debug(message: unknown, ...parameters: unknown[]): void {
    this.write('debug', message, parameters);
  }

  verbose(message: unknown, ...parameters: unknown[]): void {
    this.write('trace', message, parameters);
  }

  fatal(message: unknown, ...parameters: unknown[]): void {
    this.write('fatal', message, parameters, true);
  }

  private write(level: Level, message: unknown, parameters: unknown[], withStack = false): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...parameters];
    const fields: Fields = {};
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if (withStack && typeof rest[0] === 'string') fields.stack = rest.shift();
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...own } = message as Fields;
      this.pino[level]({ ...fields, ...own }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
