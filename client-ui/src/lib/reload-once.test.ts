import { browser } from './browser';
import { importWithReload, isStaleChunkError, reloadOnce } from './reload-once';

describe('stale chunk reload', () => {
  it('recognises failed dynamic imports only', () => {
    expect(isStaleChunkError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isStaleChunkError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isStaleChunkError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once, not again within the window, and again after it', () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    expect(reloadOnce(100_000)).toBe(true);
    expect(reloadOnce(105_000)).toBe(false);
    expect(reloadOnce(200_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('turns a stale lazy import into a reload and passes other failures through', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    const stale = importWithReload(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    );
    void stale();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));

    const broken = importWithReload(() => Promise.reject(new Error('syntax error in module')));
    await expect(broken()).rejects.toThrow('syntax error in module');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
