import { CLI_COMMANDS, HISTORY_REPLAY_SEMI_SPACE_MIB, historyReplayRelaunch } from './cli.commands';

const commandNamed = (...words: string[]) => {
  const command = CLI_COMMANDS.find((candidate) => candidate.words.join(' ') === words.join(' '));
  if (!command) throw new Error(`no command ${words.join(' ')}`);
  return command;
};

describe('historyReplayRelaunch', () => {
  it('runs the history-replaying commands again with the larger young generation, keeping the caller flags', () => {
    for (const words of [
      ['ledger', 'verify'],
      ['projections', 'rebuild'],
    ]) {
      expect(
        historyReplayRelaunch(commandNamed(...words), ['--max-old-space-size=8192'], '/app/cli.js', [
          ...words,
          '--json',
        ]),
      ).toEqual([
        '--max-old-space-size=8192',
        `--max-semi-space-size=${HISTORY_REPLAY_SEMI_SPACE_MIB}`,
        '/app/cli.js',
        ...words,
        '--json',
      ]);
    }
  });

  it('runs everything else in place, and never relaunches a process that already has a semi-space size', () => {
    for (const command of CLI_COMMANDS.filter((candidate) => !candidate.replaysHistory))
      expect(historyReplayRelaunch(command, [], '/app/cli.js', command.words)).toBeNull();
    expect(
      historyReplayRelaunch(commandNamed('ledger', 'verify'), ['--max-semi-space-size=32'], '/app/cli.js', []),
    ).toBeNull();
    expect(CLI_COMMANDS.filter((command) => command.replaysHistory).map((command) => command.words.join(' '))).toEqual([
      'ledger verify',
      'projections rebuild',
    ]);
  });
});
