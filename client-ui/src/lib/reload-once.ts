import { browser } from './browser';

const RELOAD_MARK_KEY = 'kupa-stale-chunk-reload';
// A second failure within this window means a reload did not help, so the error screen is shown instead of looping.
const RELOAD_WINDOW_MS = 10_000;

/** A failed dynamic import, which after a deploy usually means the page still references old chunk names. */
export function isStaleChunkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    error.message,
  );
}

/** Reloads the page unless it was already reloaded for this reason moments ago; answers whether it reloaded. */
export function reloadOnce(now: number = Date.now()): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOAD_MARK_KEY) ?? 0);
    if (now - last < RELOAD_WINDOW_MS) return false;
    sessionStorage.setItem(RELOAD_MARK_KEY, String(now));
  } catch {
    return false;
  }
  browser.reload();
  return true;
}

/** Wraps a lazy import so a stale chunk reloads the page once rather than failing the screen. */
export function importWithReload<T>(importer: () => Promise<T>): () => Promise<T> {
  return () =>
    importer().catch((error: unknown) => {
      if (isStaleChunkError(error) && reloadOnce()) return new Promise<T>(() => undefined);
      throw error;
    });
}
