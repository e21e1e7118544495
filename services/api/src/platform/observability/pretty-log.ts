import type { DestinationStream } from 'pino';
import type { LogFormatSetting } from '../config';

/** What a process's log lines look like: readable lines for a person at a terminal, or JSON lines for a machine. */
export type LogFormat = 'pretty' | 'json';

/**
 * `LOG_FORMAT=auto` (the default) follows standard output: a terminal gets readable lines, anything else (a file, a
 * pipe, a container's log collector) JSON lines, which is what log shippers parse (docs/adr/0074).
 */
export function chooseLogFormat(setting: LogFormatSetting, stdoutIsTty: boolean): LogFormat {
  if (setting === 'auto') return stdoutIsTty ? 'pretty' : 'json';
  return setting;
}

/** Colour only on a terminal, and never with `NO_COLOR` set to anything (https://no-color.org). */
export function colourWanted(stdoutIsTty: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return stdoutIsTty && !env.NO_COLOR;
}

export interface PrettyOptions {
  colour: boolean;
}

/** Fields every record carries, or that the line shows in its own place rather than as `key=value`. */
const OWN_PLACE = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'err', 'stack']);

const ANSI = { dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36, grey: 90 } as const;
const LEVEL_COLOUR: Record<string, keyof typeof ANSI> = {
  fatal: 'magenta',
  error: 'red',
  warn: 'yellow',
  info: 'green',
  debug: 'grey',
  trace: 'grey',
};

function paint(text: string, colour: keyof typeof ANSI, options: PrettyOptions): string {
  return options.colour ? `\u001b[${ANSI[colour]}m${text}\u001b[0m` : text;
}

/** `12:04:31.207`, in the machine's time zone: a person at the terminal reads it against their own clock. */
function clockOf(time: unknown): string {
  const date = new Date(typeof time === 'string' || typeof time === 'number' ? time : Date.now());
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** A value as it reads after `key=`: bare when it has no spaces, quotes or `=`, otherwise quoted. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

/**
 * Flattens the record's own fields into `key=value` pairs (nested objects by dotted keys: `res.statusCode=200`),
 * and sets multi-line strings (a mail's text, a stack) aside to be printed below the line, as they are.
 */
function collect(fields: Record<string, unknown>, prefix: string, pairs: string[], blocks: [string, string][]): void {
  for (const [key, value] of Object.entries(fields)) {
    const name = prefix + key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      collect(value as Record<string, unknown>, `${name}.`, pairs, blocks);
    } else if (typeof value === 'string' && value.includes('\n')) {
      blocks.push([name, value]);
    } else {
      pairs.push(`${name}=${valueText(value)}`);
    }
  }
}

function indented(text: string): string {
  return text
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * One log record (pino's JSON object) as a line a person reads: time, level, `[context]`, the message, then the other
 * fields as compact `key=value` pairs; an error's stack and any multi-line text follow on indented lines.
 */
export function prettyLine(record: Record<string, unknown>, options: PrettyOptions): string {
  const level = typeof record.level === 'string' ? record.level : 'info';
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!OWN_PLACE.has(key)) own[key] = value;
  const pairs: string[] = [];
  const blocks: [string, string][] = [];
  collect(own, '', pairs, blocks);
  const err = record.err as { message?: unknown; stack?: unknown } | undefined;
  const stack = typeof record.stack === 'string' ? record.stack : typeof err?.stack === 'string' ? err.stack : null;
  const head = [
    paint(clockOf(record.time), 'dim', options),
    paint(level.toUpperCase().padEnd(5), LEVEL_COLOUR[level] ?? 'green', options),
    typeof record.context === 'string' ? paint(`[${record.context}]`, 'cyan', options) : null,
    typeof record.msg === 'string' ? record.msg : typeof err?.message === 'string' ? err.message : null,
    pairs.length > 0 ? paint(pairs.join(' '), 'dim', options) : null,
  ]
    .filter((part) => part !== null && part !== '')
    .join(' ');
  const below = blocks.map(([name, text]) => `  ${paint(`${name}:`, 'dim', options)}\n${indented(text)}`);
  if (stack) below.push(paint(indented(stack), 'dim', options));
  return [head, ...below].join('\n');
}

/**
 * A pino destination that writes each record as a pretty line to `target`. Records reach it after pino's redaction,
 * so a pretty line hides exactly what a JSON line hides.
 */
export function prettyDestination(target: DestinationStream, options: PrettyOptions): DestinationStream {
  return {
    write(chunk: string) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(chunk) as Record<string, unknown>;
      } catch {
        target.write(chunk);
        return;
      }
      target.write(`${prettyLine(record, options)}\n`);
    },
  };
}
