import { Metrics } from './metrics';

describe('Metrics', () => {
  it("shows the read replica's gauges only once a process with a replica registers them", async () => {
    const metrics = new Metrics({ processMetrics: false });
    expect(await metrics.scrape()).not.toContain('kupa_replica_up');
    const gauges = metrics.replicaGauges();
    gauges.up.set(1);
    gauges.lagSeconds.set(0.25);
    expect(metrics.replicaGauges()).toBe(gauges);
    const text = await metrics.scrape();
    expect(text).toMatch(/^kupa_replica_up 1$/m);
    expect(text).toMatch(/^kupa_replica_lag_seconds 0\.25$/m);
    expect(text).toMatch(/^kupa_replica_lag_bytes 0$/m);
  });
});
