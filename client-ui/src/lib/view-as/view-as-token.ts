// Read only by the view-as page, which loads on demand: none of this weighs on the first screen.

export interface ViewAsClaims {
  /** The client viewed. */
  sub: string;
  /** The opening's id, as the client's activity log shows it. */
  vid: string;
  /** When the token ends, in seconds since the epoch. */
  exp: number;
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The claims a view-as token carries, read without checking its signature (the API does that on every call): only to
 * know whose view it is and until when. Null for anything that is not a view-as token.
 */
export function viewAsClaims(token: string): ViewAsClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(decodeBase64Url(parts[1])) as Partial<ViewAsClaims> & { vab?: unknown };
    const valid =
      typeof claims.sub === 'string' &&
      typeof claims.vid === 'string' &&
      typeof claims.vab === 'string' &&
      typeof claims.exp === 'number';
    return valid ? { sub: claims.sub!, vid: claims.vid!, exp: claims.exp! } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the token from the address's fragment (`/view-as#<token>`, or `#token=<token>`) and removes the fragment from
 * the address bar and the tab's history at once, so the token is not left in the history, a bookmark or a shared
 * screenshot. The fragment never reaches a server or its logs.
 */
export function takeViewAsToken(): string | null {
  const fragment = window.location.hash.replace(/^#/, '');
  if (fragment === '') return null;
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  const token = fragment.startsWith('token=') ? fragment.slice('token='.length) : fragment;
  return token === '' ? null : decodeURIComponent(token);
}
