import { randomUUID } from 'node:crypto';
import { eventMetadata, systemContext } from '../../../../platform/auth';
import { InlineProjectionRegistry } from '../../../../platform/projections';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import { createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { type WalletEvent, walletStreamId } from '../../domain/ledger.events';
import { type LoadedWallet, loadWallet } from '../../infrastructure/ledger-streams';
import { balanceMinorOf, depositAs, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

/**
 * Enough history that reading it all would show; appended in batches to keep the spec quick. Not larger: processors
 * read whole commits (docs/adr/0128), so a commit of 5,000 deposits made the receipts processor's batch 5,000 receipts
 * in one transaction, and the rebuild below waited 13 to 18 s at each `TRUNCATE` for such a batch to end.
 */
const LONG_WALLET_EVENTS = 20_000;
const APPEND_BATCH_SIZE = 500;

describe('wallet snapshots', () => {
  let testApp: TestApp;
  let store: EventStore;
  /**
   * Signed up before the long wallet's 20k deposits: each earns a receipt and its mail (ADR 0097), and the outbox
   * takes minutes to send them, so a confirmation mail asked for after them would wait behind them.
   */
  let entriesClient: Awaited<ReturnType<typeof createActiveUser>>;

  beforeAll(async () => {
    testApp = await startTestApp();
    store = testApp.app.get(EventStore);
    entriesClient = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const loadUnderLock = async (userUuid: string): Promise<LoadedWallet> => {
    const { result } = await store.transact(
      [walletStreamId(userUuid)],
      eventMetadata(systemContext(), new Date()),
      async (tx) => ({
        appends: [],
        result: await loadWallet(tx, userUuid),
      }),
    );
    return result;
  };

  it('lets a wallet with 20k events decide reading as few events as a new one', async () => {
    const [long, fresh] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    const streamId = walletStreamId(long.userUuid);
    for (let start = 0; start < LONG_WALLET_EVENTS; start += APPEND_BATCH_SIZE) {
      const events: WalletEvent[] = Array.from({ length: APPEND_BATCH_SIZE }, (_unused, index) => ({
        type: 'ManualDepositRecorded',
        data: {
          userUuid: long.userUuid,
          paymentId: start + index + 1,
          amountMinor: 1,
          transaction: {
            transactionId: randomUUID(),
            postings: [{ source: 'world:manual', destination: `user:${long.userUuid}`, amountMinor: 1 }],
          },
        },
      }));
      await store.append([{ streamId, expectedVersion: start, events }], eventMetadata(systemContext(), new Date()));
    }

    const longWallet = await loadUnderLock(long.userUuid);
    const freshWallet = await loadUnderLock(fresh.userUuid);
    expect(longWallet).toMatchObject({
      version: LONG_WALLET_EVENTS,
      state: { balanceMinor: LONG_WALLET_EVENTS },
      eventsRead: 0,
    });
    expect(freshWallet).toMatchObject({ version: 0, eventsRead: 0 });

    // A command on the long wallet decides from the snapshot and leaves the next one behind.
    await depositAs(testApp, long.userUuid, 1);
    expect(await loadUnderLock(long.userUuid)).toMatchObject({ version: LONG_WALLET_EVENTS + 1, eventsRead: 0 });
    expect(await balanceMinorOf(testApp, long.userUuid)).toBe(LONG_WALLET_EVENTS + 100);

    // Without its snapshot the same wallet reads its whole history: the snapshot is what bounds the cost.
    await testApp.dataSource.query('DELETE FROM wallet_snapshots WHERE stream_id = $1', [streamId]);
    const unsnapshotted = await loadUnderLock(long.userUuid);
    expect(unsnapshotted.eventsRead).toBe(LONG_WALLET_EVENTS + 1);
    expect(unsnapshotted.state).toEqual({ balanceMinor: LONG_WALLET_EVENTS + 100 });
  });

  it("gives a command's ledger entries their starting balances from the wallets it loaded, not from a second read", async () => {
    const client = entriesClient;
    await depositAs(testApp, client.userUuid, 5);
    const account = `user:${client.userUuid}`;
    // A balance row that disagrees with the wallet: an append that read it would carry 777 forward.
    await testApp.dataSource.query('UPDATE account_balances SET balance_minor = 777 WHERE account = $1', [account]);

    await depositAs(testApp, client.userUuid, 2);

    const [entry]: Array<{ balance_after_minor: string }> = await testApp.dataSource.query(
      'SELECT balance_after_minor FROM ledger_entries WHERE account = $1 ORDER BY global_position DESC LIMIT 1',
      [account],
    );
    expect(Number(entry.balance_after_minor)).toBe(700);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(700);
  });

  it('rebuilds snapshots and every ledger read model from the events alone', async () => {
    await testApp.dataSource.query('UPDATE wallet_snapshots SET state = $1', [JSON.stringify({ balanceMinor: 12345 })]);
    await testApp.dataSource.query('UPDATE account_balances SET balance_minor = 777');
    const projections = testApp.app.get(InlineProjectionRegistry);
    for (const name of ['payments', 'ledger-entries', 'wallet-snapshots']) await projections.rebuild(name);
    await expectReadModelsToEqualReplay(testApp);
  });
});
