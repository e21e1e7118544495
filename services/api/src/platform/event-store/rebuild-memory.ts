import type { EntityManager } from 'typeorm';

/**
 * What a projection keeps in memory while one transaction replays every event into it (see
 * `InlineProjection.beginRebuild`), kept per transaction: a replay check (`kupa ledger verify`) runs beside live
 * appends in the same process, and those must go on reading and writing their rows as usual.
 */
export class RebuildMemory<Kept> {
  private readonly byTransaction = new Map<EntityManager, Kept>();

  begin(manager: EntityManager, kept: Kept): void {
    if (this.byTransaction.has(manager)) throw new Error('A rebuild is already running in this transaction');
    this.byTransaction.set(manager, kept);
  }

  /** What this transaction's rebuild keeps; undefined when the transaction is not rebuilding (a live append). */
  of(manager: EntityManager): Kept | undefined {
    return this.byTransaction.get(manager);
  }

  /** Ends the transaction's rebuild and hands over what it kept. */
  end(manager: EntityManager): Kept | undefined {
    const kept = this.byTransaction.get(manager);
    this.byTransaction.delete(manager);
    return kept;
  }
}
