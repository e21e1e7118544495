import { KeptDifferences } from './differences';

describe('KeptDifferences', () => {
  const difference = (n: number) => ({ source: 'payments' as const, subject: `payment ${n}`, message: 'differs' });

  it('keeps the first differences up to its limit and counts every one', () => {
    const differences = new KeptDifferences(2);
    for (const n of [1, 2, 3, 4]) differences.add(difference(n));
    expect(differences.kept.map((kept) => kept.subject)).toEqual(['payment 1', 'payment 2']);
    expect(differences.count).toBe(4);
  });

  it('records a field only when the two values differ as text', () => {
    const differences = new KeptDifferences(10);
    differences.field('payments', 'payment 1', 'amount_minor', 500, '500');
    differences.field('payments', 'payment 1', 'comment', null, 'note');
    expect(differences.kept).toEqual([
      { source: 'payments', subject: 'payment 1', message: 'comment differs', expected: 'null', actual: 'note' },
    ]);
  });

  it('merges what another part found after its own, keeping the count of what the other did not keep', () => {
    const differences = new KeptDifferences(3);
    differences.add(difference(1));
    // A worker that found 5 and sent back the 3 it kept.
    differences.merge({ kept: [difference(2), difference(3), difference(4)], count: 5 });
    expect(differences.kept.map((kept) => kept.subject)).toEqual(['payment 1', 'payment 2', 'payment 3']);
    expect(differences.count).toBe(6);
  });
});
