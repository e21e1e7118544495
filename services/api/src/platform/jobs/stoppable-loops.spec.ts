import { StoppableLoops } from './stoppable-loops';

describe('StoppableLoops', () => {
  it('wakes a loop pausing for an hour at once when stopped, and waits for its body to return', async () => {
    const loops = new StoppableLoops();
    const passes: string[] = [];
    loops.start('hourly', async (loop) => {
      while (!loop.stopping) {
        passes.push('pass');
        await loop.pause(60 * 60_000);
      }
      passes.push('returned');
    });
    const startedAt = Date.now();
    await loops.stopAll();
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(passes).toEqual(['pass', 'returned']);
    expect(loops.has('hourly')).toBe(false);
  });

  it('runs one loop per name: starting a running name again does nothing', async () => {
    const loops = new StoppableLoops();
    let bodies = 0;
    const body = async (loop: { stopping: boolean; pause(ms: number): Promise<void> }) => {
      bodies += 1;
      while (!loop.stopping) await loop.pause(60_000);
    };
    loops.start('once', body);
    loops.start('once', body);
    expect(bodies).toBe(1);
    await loops.stopAll();
    loops.start('once', body);
    expect(bodies).toBe(2);
    await loops.stopAll();
  });
});
