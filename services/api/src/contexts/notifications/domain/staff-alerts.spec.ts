import { decideLagEpisode, isLagging, isLargeDepositAlert, type LagEpisode, renewalPassAlertDue } from './staff-alerts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute));
const thresholds = { events: 10_000, seconds: 300 };

describe('which facts are staff alerts', () => {
  it('Given the threshold of $500, When a deposit of exactly $500 is credited, Then it is an alert', () => {
    expect(isLargeDepositAlert(50_000, 50_000)).toBe(true);
  });

  it('Given the threshold of $500, When a deposit of $499.99 is credited, Then it is not', () => {
    expect(isLargeDepositAlert(49_999, 50_000)).toBe(false);
  });

  it('Given a renewal pass that only renewed, When it ends, Then nothing is told', () => {
    expect(renewalPassAlertDue({ renewed: 4, short: 0, errored: 0 })).toBe(false);
  });

  it('Given a renewal pass with a short balance or an error, When it ends, Then it is told', () => {
    expect(renewalPassAlertDue({ renewed: 0, short: 1, errored: 0 })).toBe(true);
    expect(renewalPassAlertDue({ renewed: 3, short: 0, errored: 2 })).toBe(true);
  });

  it('Given the metrics thresholds, When a reading is over either one, Then the processor lags; at them it does not', () => {
    expect(isLagging({ events: 10_001, seconds: 0 }, thresholds)).toBe(true);
    expect(isLagging({ events: 3, seconds: 301 }, thresholds)).toBe(true);
    expect(isLagging({ events: 10_000, seconds: 300 }, thresholds)).toBe(false);
  });
});

describe('a lagging processor is told once per episode', () => {
  it('Given a processor never told about, When it reads within the thresholds, Then nothing is told or kept', () => {
    expect(decideLagEpisode(null, false, at(0))).toEqual({ next: null, alert: null });
  });

  it('Given a processor never told about, When it starts lagging, Then episode 1 opens and is told', () => {
    expect(decideLagEpisode(null, true, at(0))).toEqual({
      next: { episode: 1, lagging: true, changedAt: at(0) },
      alert: { kind: 'lagging', episode: 1, laggingSince: at(0) },
    });
  });

  it('Given an episode already told, When the next readings still lag, Then nothing more is told', () => {
    const told: LagEpisode = { episode: 1, lagging: true, changedAt: at(0) };
    expect(decideLagEpisode(told, true, at(1))).toEqual({ next: null, alert: null });
    expect(decideLagEpisode(told, true, at(30))).toEqual({ next: null, alert: null });
  });

  it('Given a lagging episode, When the processor is back within the thresholds, Then its end is told once, with its start', () => {
    const told: LagEpisode = { episode: 1, lagging: true, changedAt: at(0) };
    const decision = decideLagEpisode(told, false, at(12));
    expect(decision).toEqual({
      next: { episode: 1, lagging: false, changedAt: at(12) },
      alert: { kind: 'recovered', episode: 1, laggingSince: at(0) },
    });
    expect(decideLagEpisode(decision.next, false, at(13))).toEqual({ next: null, alert: null });
  });

  it('Given an episode that ended, When the processor lags again, Then a new episode opens under a new number', () => {
    const ended: LagEpisode = { episode: 1, lagging: false, changedAt: at(12) };
    expect(decideLagEpisode(ended, true, at(20))).toEqual({
      next: { episode: 2, lagging: true, changedAt: at(20) },
      alert: { kind: 'lagging', episode: 2, laggingSince: at(20) },
    });
  });
});
