import { dashboardPeriods } from './dashboard-periods';

describe('dashboard periods', () => {
  it('compare the calendar month of now (UTC) with the one before, across a year end', () => {
    const periods = dashboardPeriods(new Date('2026-01-15T23:30:00Z'));
    expect(periods.lastMonthFrom.toISOString()).toBe('2025-12-01T00:00:00.000Z');
    expect(periods.thisMonthFrom.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(periods.nextMonthFrom.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('chart the last 30 UTC days, today included and last, and look 7 days ahead for renewals', () => {
    const now = new Date('2026-03-01T00:10:00Z');
    const periods = dashboardPeriods(now);
    expect(periods.chartDays).toHaveLength(30);
    expect(periods.chartDays[0]).toBe('2026-01-31');
    expect(periods.chartDays[29]).toBe('2026-03-01');
    expect(periods.chartFrom.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(periods.chartUntil.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(periods.renewalsUntil.toISOString()).toBe('2026-03-08T00:10:00.000Z');
  });

  it('keep a windowed queue item (failed provisioning, large deposit) for the last 7 days', () => {
    expect(dashboardPeriods(new Date('2026-03-01T00:10:00Z')).queueFrom.toISOString()).toBe('2026-02-22T00:10:00.000Z');
  });
});
