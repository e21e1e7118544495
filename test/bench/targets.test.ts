import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeTargets } from './targets.ts';

/** One level of the `peer` scenario's report, with ratios that meet every target unless overridden. */
function peerLevel(concurrency: number, ratios: Record<string, number> = {}) {
  return {
    concurrency,
    ratios: {
      transfersPerSecondOursToPeer: 1.1,
      cpuPerTransferOursToPeer: 0.9,
      p99OursToPeer: 0.8,
      purchasesPerSecondToPeerTransfersPerSecond: 0.75,
      ourTransfersToRawCommits: 0.06,
      ...ratios,
    },
  };
}

const judged = (report: Record<string, unknown>) =>
  new Map(judgeTargets(report).results.map((result) => [result.target, result]));

describe("issue 36's targets, judged from the peer scenario", () => {
  it('judges rate and CPU at every level, and p99, purchases and raw commits at 32 clients', () => {
    const report = { peer: { levels: [peerLevel(1), peerLevel(8), peerLevel(32)] } };
    const results = judged(report);
    assert.deepEqual(
      [...results.keys()],
      [
        'transfers/s ours ÷ peer at 1 clients',
        'CPU per transfer ours ÷ peer at 1 clients',
        'transfers/s ours ÷ peer at 8 clients',
        'CPU per transfer ours ÷ peer at 8 clients',
        'transfers/s ours ÷ peer at 32 clients',
        'CPU per transfer ours ÷ peer at 32 clients',
        'transfer p99 ours ÷ peer at 32 clients',
        'purchases/s ÷ peer transfers/s at 32 clients',
        'our transfers ÷ raw commits at 32 clients',
      ],
    );
    assert.equal(judgeTargets(report).allMet, true);
  });

  it('fails a level that misses, and only that target', () => {
    const report = {
      peer: { levels: [peerLevel(1), peerLevel(8, { transfersPerSecondOursToPeer: 0.55 }), peerLevel(32)] },
    };
    const results = judged(report);
    assert.deepEqual(results.get('transfers/s ours ÷ peer at 8 clients'), {
      target: 'transfers/s ours ÷ peer at 8 clients',
      limit: 1,
      measured: 0.55,
      met: false,
    });
    assert.equal([...results.values()].filter((result) => !result.met).length, 1);
    assert.equal(judgeTargets(report).allMet, false);
  });

  it('holds the limits at their edges: a ratio of exactly 1.0 meets both the rate and the CPU target', () => {
    const report = {
      peer: {
        levels: [
          peerLevel(32, {
            transfersPerSecondOursToPeer: 1,
            cpuPerTransferOursToPeer: 1,
            p99OursToPeer: 1.01,
            purchasesPerSecondToPeerTransfersPerSecond: 0.7,
            ourTransfersToRawCommits: 0.049,
          }),
        ],
      },
    };
    const results = judged(report);
    assert.equal(results.get('transfers/s ours ÷ peer at 32 clients')?.met, true);
    assert.equal(results.get('CPU per transfer ours ÷ peer at 32 clients')?.met, true);
    assert.equal(results.get('transfer p99 ours ÷ peer at 32 clients')?.met, false);
    assert.equal(results.get('purchases/s ÷ peer transfers/s at 32 clients')?.met, true);
    assert.equal(results.get('our transfers ÷ raw commits at 32 clients')?.met, false);
  });

  it('counts a run without the 32-client level as not meeting the 32-client targets', () => {
    const results = judged({ peer: { levels: [peerLevel(1), peerLevel(8)] } });
    assert.equal(results.get('transfer p99 ours ÷ peer at 32 clients')?.met, false);
    assert.equal(results.get('purchases/s ÷ peer transfers/s at 32 clients')?.met, false);
  });

  it('judges nothing of the peer in a run without the scenario', () => {
    const results = judged({ export: { rowsPerSecond: 250_000, serverRssGrowthMiB: 12 } });
    assert.deepEqual([...results.keys()], ['export rows/s', 'export server RSS growth MiB']);
  });
});

describe("the ledger's verify in a full run", () => {
  it('fails a run whose whole-ledger verify found a difference, whatever its speed', () => {
    // A full run of 2026-12-02: the Telegram scenario's clients, seeded by SQL, were in the users read model when the
    // whole ledger was verified, and the run judged only the verify's speed.
    const results = judged({ verifyAll: { eventsPerSecond: 25_000, differences: 21 } });
    assert.deepEqual(results.get('verify differences (whole ledger)'), {
      target: 'verify differences (whole ledger)',
      limit: 0,
      measured: 21,
      met: false,
    });
    assert.equal(results.get('verify events/s (whole ledger)')?.met, true);
  });

  it('judges the verify of what the commands wrote on its own, and meets both with no difference', () => {
    const report = { verifyCommandData: { differences: 0 }, verifyAll: { eventsPerSecond: 25_000, differences: 0 } };
    assert.deepEqual(
      [...judged(report).keys()],
      [
        'verify differences (what the commands wrote)',
        'verify events/s (whole ledger)',
        'verify differences (whole ledger)',
      ],
    );
    assert.equal(judgeTargets(report).allMet, true);
  });
});
