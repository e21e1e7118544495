import {
  type BalanceEntry,
  type BalanceMovement,
  balanceMovements,
  lowBalanceCrossings,
  lowBalanceTopUpMinor,
} from './balance-notices';

const dana = '11111111-1111-4111-8111-111111111111';
const omer = '22222222-2222-4222-8222-222222222222';

/** A client's balance over time as the movements between its successive values, one transaction each. */
function movementsThrough(balancesMinor: readonly number[], userUuid = dana): BalanceMovement[] {
  return balancesMinor.slice(1).map((afterMinor, index) => ({
    transactionId: `t${index + 1}`,
    userUuid,
    beforeMinor: balancesMinor[index]!,
    afterMinor,
  }));
}

const crossedAt = (balancesMinor: readonly number[], thresholdMinor: number | null) =>
  lowBalanceCrossings(movementsThrough(balancesMinor), () => thresholdMinor).map((crossing) => crossing.transactionId);

describe('the low-balance crossing over a sequence of balances (ADR 0102, 0105)', () => {
  it('Given a $5 threshold and $12, When a purchase leaves $4, Then one notice', () => {
    expect(crossedAt([1200, 400], 500)).toEqual(['t1']);
  });

  it('Given the balance already under, When a second purchase takes it lower, Then no second notice', () => {
    expect(crossedAt([1200, 400, 100], 500)).toEqual(['t1']);
  });

  it('Given it came back above with a deposit, When it falls under again, Then a second notice', () => {
    expect(crossedAt([1200, 400, 100, 1100, 300], 500)).toEqual(['t1', 't4']);
  });

  it('Given a deposit that only reaches $4.99, When it falls again, Then no notice: it never came back up', () => {
    expect(crossedAt([1200, 400, 499, 100], 500)).toEqual(['t1']);
  });

  it('Given exactly the threshold, When it falls a cent under, Then a notice; landing on it is not under', () => {
    expect(crossedAt([600, 500, 499], 500)).toEqual(['t2']);
  });

  it('Given no threshold, When the balance falls to zero and below, Then nothing', () => {
    expect(crossedAt([10_000, 0, -500], null)).toEqual([]);
  });

  it('Given each client’s own threshold, When both fall, Then only the one who crossed theirs is told', () => {
    const movements = [...movementsThrough([1000, 700], dana), ...movementsThrough([1000, 700], omer)];
    const thresholds = new Map([
      [dana, 800],
      [omer, 500],
    ]);
    const crossings = lowBalanceCrossings(movements, (userUuid) => thresholds.get(userUuid) ?? null);
    expect(crossings).toEqual([
      { transactionId: 't1', userUuid: dana, beforeMinor: 1000, afterMinor: 700, thresholdMinor: 800 },
    ]);
    expect(lowBalanceTopUpMinor(crossings[0]!)).toBe(100);
  });
});

describe('the balance movements of the ledger’s entries', () => {
  it('Given a transfer, When its entries are read, Then the sender falls and the recipient rises; system accounts are left out', () => {
    const entries: BalanceEntry[] = [
      { transactionId: 'tr', account: `user:${dana}`, amountMinor: -700, balanceAfterMinor: 300 },
      { transactionId: 'tr', account: `user:${omer}`, amountMinor: 700, balanceAfterMinor: 900 },
      { transactionId: 'dep', account: 'world:manual', amountMinor: -100, balanceAfterMinor: 0 },
    ];
    expect(balanceMovements(entries)).toEqual([
      { transactionId: 'tr', userUuid: dana, beforeMinor: 1000, afterMinor: 300 },
      { transactionId: 'tr', userUuid: omer, beforeMinor: 200, afterMinor: 900 },
    ]);
  });

  it('Given one transaction that touches a balance twice, When read, Then one movement from before the first to after the last', () => {
    const entries: BalanceEntry[] = [
      { transactionId: 'x', account: `user:${dana}`, amountMinor: 1000, balanceAfterMinor: 1600 },
      { transactionId: 'x', account: `user:${dana}`, amountMinor: -1200, balanceAfterMinor: 400 },
    ];
    expect(balanceMovements(entries)).toEqual([
      { transactionId: 'x', userUuid: dana, beforeMinor: 600, afterMinor: 400 },
    ]);
  });
});
