/**
 * Lets code outside React (the API client) move the user to another screen. The app registers the router's
 * navigate function at start-up; until then, and in bare unit tests, a full page load does the job.
 */
export type Navigate = (to: string) => void;

let navigateImpl: Navigate | null = null;
let currentImpl: (() => string) | null = null;

export function registerNavigate(navigate: Navigate | null, current: (() => string) | null = null): void {
  navigateImpl = navigate;
  currentImpl = current;
}

/** The address the user is on (path, search and hash), as the router knows it. */
export function currentPath(): string {
  return currentImpl ? currentImpl() : `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

export function navigateTo(to: string): void {
  if (navigateImpl) navigateImpl(to);
  else window.location.assign(to);
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Where the sign-in screen may send the user afterwards; the screens of signing in and out lead nowhere useful. */
const NOT_A_RETURN_PATH = /^\/(login|logout|blocked)(\/|\?|#|$)/;

/**
 * The address to open after signing in, when the one asked for is a path of this app (ADR 0079). Anything that could leave the origin is refused, so that a link cannot use the
 * sign-in page to send someone elsewhere: `//evil.com` and `/\evil.com` (which browsers read as another host),
 * `https://evil.com`, `javascript:` and any text with control characters. Answers the path with its search and hash,
 * or null.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return null;
  if (value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return null;
  const base = 'https://kupa.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return NOT_A_RETURN_PATH.test(path) ? null : path;
}

/** The login screen's address that, after signing in, brings the user back to `current` (when it may). */
export function loginPathReturningTo(current: string): string {
  const back = safeReturnPath(current);
  return back && back !== '/' ? `/login?redirect=${encodeURIComponent(back)}` : '/login';
}
