import type { SqlReader } from '../database/read-only-snapshot';
import {
  checkCommit,
  checkHeads,
  type HashChainProblem,
  type StreamState,
  stepChain,
  type VerifiedRow,
} from './hash-chain-verifier';

/** A stream's head as a checkpoint holds it: its last version and that event's hash. */
export interface StreamHead {
  version: number;
  hash: string;
}

/** The hash chains of the events after a checkpoint, fed in commit order (`startChainContinuation`). */
export interface ChainContinuation {
  apply(row: VerifiedRow & { commit_position: string }): void;
  /** Checks the head row of every stream the window touched; answers the problems and those streams' new heads. */
  finish(reader: SqlReader): Promise<{ problems: HashChainProblem[]; heads: Map<string, StreamHead> }>;
}

/**
 * The hash chain check of `kupa ledger verify --since-checkpoint` (ADR 0111): each stream an event after the checkpoint
 * belongs to continues from the checkpoint's head (version and hash) with no gap, every such event's stored hash is
 * the one recomputed from it, commit positions rise with versions, and the stream's head row names its last event.
 * Events are fed in commit order, which within a stream is the version order (ADR 0061), so the window is read once,
 * in the order the ledger's replay needs too. What it cannot see: an event edited or slipped in at or before the
 * checkpoint's position; the full verify still walks every chain.
 */
export function startChainContinuation(headAt: (streamId: string) => StreamHead | undefined): ChainContinuation {
  const streams = new Map<string, StreamState>();
  const problems: HashChainProblem[] = [];
  return {
    apply(row) {
      let state = streams.get(row.stream_id);
      if (!state) {
        const head = headAt(row.stream_id);
        state = {
          streamId: row.stream_id,
          version: head?.version ?? 0,
          computedHash: head?.hash ?? null,
          broken: false,
          commitPosition: 0n,
          commitProblem: false,
          checkpointVersion: 0,
          checkpointHash: null,
        };
        streams.set(row.stream_id, state);
      }
      checkCommit(state, row, problems);
      if (state.broken) return;
      stepChain(state, row, problems, ' after the checkpoint');
    },
    async finish(reader) {
      const touched = [...streams.values()];
      const batchSize = 5000;
      for (let start = 0; start < touched.length; start += batchSize)
        await checkHeads(reader, touched.slice(start, start + batchSize), problems);
      const heads = new Map<string, StreamHead>();
      for (const state of touched)
        if (!state.broken && state.computedHash !== null)
          heads.set(state.streamId, { version: state.version, hash: state.computedHash });
      problems.sort((left, right) => (left.streamId < right.streamId ? -1 : left.streamId > right.streamId ? 1 : 0));
      return { problems, heads };
    },
  };
}
