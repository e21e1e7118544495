import { chooseLogFormat, colourWanted, prettyLine } from './pretty-log';
import { JsonLogger } from './json-logger';

/** The local clock of a record's time, as the pretty line shows it. */
function clock(iso: string): string {
  const date = new Date(iso);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

describe('the log format', () => {
  it('follows standard output by default: readable on a terminal, JSON anywhere else', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
  });

  it('is forced by LOG_FORMAT, whatever standard output is', () => {
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('is coloured only on a terminal, and never with NO_COLOR', () => {
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '1' })).toBe(false);
    // no-color.org: an empty NO_COLOR is as if unset.
    expect(colourWanted(true, { NO_COLOR: '' })).toBe(true);
  });
});

describe('a pretty line', () => {
  const time = '2026-11-29T06:43:13.807Z';

  it('reads time, level, context and message, then compact key=value fields', () => {
    const line = prettyLine(
      {
        level: 'info',
        time,
        pid: 17760,
        hostname: 'vm',
        context: 'Payments',
        msg: 'Deposit credited',
        requestId: '3f1c',
        amountMinor: 2500,
        note: 'two words',
        res: { statusCode: 201 },
      },
      { colour: false },
    );
    expect(line).toBe(
      `${clock(time)} INFO  [Payments] Deposit credited requestId=3f1c amountMinor=2500 note="two words" res.statusCode=201`,
    );
  });

  it('puts a stack and multi-line text on indented lines below, never as escaped \\n', () => {
    const line = prettyLine(
      {
        level: 'error',
        time,
        context: 'Mail',
        msg: 'Mail written to the log (no SMTP_URL)',
        mail: { to: 'dana@example.com', text: 'Hello,\nconfirm: http://localhost:3000/confirm?token=abc' },
        stack: 'Error: boom\n    at here',
      },
      { colour: false },
    );
    expect(line.split('\n')).toEqual([
      `${clock(time)} ERROR [Mail] Mail written to the log (no SMTP_URL) mail.to=dana@example.com`,
      '  mail.text:',
      '    Hello,',
      '    confirm: http://localhost:3000/confirm?token=abc',
      '    Error: boom',
      '        at here',
    ]);
    expect(line).not.toContain('\\n');
  });

  it('colours the level only when asked', () => {
    const record = { level: 'warn', time, msg: 'Careful' };
    expect(prettyLine(record, { colour: true })).toContain('\u001b[33mWARN \u001b[0m');
    expect(prettyLine(record, { colour: false })).not.toContain('\u001b[');
  });
});

describe('the logger', () => {
  function capture(format: 'pretty' | 'json', level: 'log' | 'debug' = 'log'): { logger: JsonLogger; lines: string[] } {
    const lines: string[] = [];
    const logger = JsonLogger.create({
      level,
      format,
      colour: false,
      destination: { write: (line) => void lines.push(line) },
    });
    return { logger, lines };
  }

  it('writes the same redacted record as a pretty line', () => {
    const { logger, lines } = capture('pretty');
    logger.log({ msg: 'Signed in', email: 'dana@example.com', password: 'Secret-1!' }, 'Identity');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[Identity\] Signed in email=dana@example\.com password=\[redacted\]\n$/,
    );
  });

  it("keeps Nest's route table and module list at debug", () => {
    const quiet = capture('json');
    quiet.logger.log('Mapped {/api/payments, POST} route', 'RouterExplorer');
    quiet.logger.log('PaymentsController {/api/payments}:', 'RoutesResolver');
    quiet.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.logger.log('Nest application successfully started', 'NestApplication');
    expect(quiet.lines.map((line) => JSON.parse(line).msg)).toEqual(['Nest application successfully started']);

    const debugging = capture('json', 'debug');
    debugging.logger.log('Mapped {/api/payments, POST} route', 'RouterExplorer');
    expect(JSON.parse(debugging.lines[0] ?? '{}')).toMatchObject({ level: 'debug', context: 'RouterExplorer' });
  });
});
