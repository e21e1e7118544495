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

  it('cuts an hour-long pause short at a wake, and the loop keeps running', async () => {
    const loops = new StoppableLoops();
    let passes = 0;
    loops.start('hourly', async (loop) => {
      while (!loop.stopping) {
        passes += 1;
        await loop.pause(60 * 60_000);
      }
    });
    expect(passes).toBe(1);
    loops.wakeAll();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passes).toBe(2);
    expect(loops.has('hourly')).toBe(true);
    await loops.stopAll();
  });

  it('skips the next pause of a loop woken while at work: what it read may predate the wake', async () => {
    const loops = new StoppableLoops();
    let passes = 0;
    let release!: () => void;
    const working = new Promise<void>((resolve) => (release = resolve));
    loops.start('busy', async (loop) => {
      while (!loop.stopping) {
        passes += 1;
        if (passes === 1) await working;
        await loop.pause(60 * 60_000);
      }
    });
    loops.wakeAll();
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first pause returned at once, the second (no wake since) waits its hour.
    expect(passes).toBe(2);
    await loops.stopAll();
  });
});
