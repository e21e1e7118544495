import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/**
 * Where a UI build keeps the files whose names carry a hash of their content (Vite's `assetsDir`). A changed file
 * gets a new name, so these may be cached for a year without revalidation (docs/adr/0038-static-assets.md).
 */
const HASHED_ASSETS_DIRECTORY = 'assets';
const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Anything else beside index.html (robots.txt, icons) keeps its name between releases: an hour, then revalidate. */
const UNHASHED_MAX_AGE = '1h';

/** The encodings a build may leave beside a file (`scripts/precompress.mjs`), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof PRECOMPRESSED)[number]['encoding'];

/**
 * The pre-compressed twins of a build, by URL path relative to the build's root (`/assets/index-abc.js` → the
 * encodings present). Read once at start: a build does not change under a running server.
 */
function findPrecompressed(directory: string): Map<string, Set<Encoding>> {
  const found = new Map<string, Set<Encoding>>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      for (const { encoding, suffix } of PRECOMPRESSED) {
        const original = path.slice(0, -suffix.length);
        if (!path.endsWith(suffix) || !existsSync(original)) continue;
        const urlPath = `/${relative(directory, original).split(sep).join('/')}`;
        const encodings = found.get(urlPath) ?? new Set<Encoding>();
        encodings.add(encoding);
        found.set(urlPath, encodings);
      }
    }
  };
  walk(directory);
  return found;
}

/** The weight (`q`) a browser gives each encoding it names in `Accept-Encoding`; `*` stands for the others. */
function encodingWeights(header: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return weights;
}

/**
 * The twin to send: the encoding the browser weighs highest among those present, ours breaking ties (Brotli, being
 * smaller, before gzip; browsers list gzip first without meaning a preference), or none when identity is wanted.
 */
function chooseTwin(header: string | undefined, present: Set<Encoding>): (typeof PRECOMPRESSED)[number] | undefined {
  const weights = encodingWeights(header);
  const weightOf = (encoding: string): number => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: (typeof PRECOMPRESSED)[number] | undefined;
  for (const twin of PRECOMPRESSED) {
    if (!present.has(twin.encoding) || weightOf(twin.encoding) <= 0) continue;
    if (!best || weightOf(twin.encoding) > weightOf(best.encoding)) best = twin;
  }
  return best;
}

function isHashedAsset(urlPath: string): boolean {
  return urlPath.startsWith(`/${HASHED_ASSETS_DIRECTORY}/`);
}

/**
 * A request for a file rather than a page: its last segment ends in an extension. No client route does (route
 * parameters are numbers, UUIDs and base64url tokens, none with a dot), and a browser asking for `/favicon.ico` or
 * a crawler for `/sitemap.xml` must learn that it is missing instead of receiving the app's page.
 */
const FILE_EXTENSION = /\.[a-z0-9]{1,12}$/i;

function isFileRequest(urlPath: string): boolean {
  return isHashedAsset(urlPath) || FILE_EXTENSION.test(urlPath.slice(urlPath.lastIndexOf('/') + 1));
}

/**
 * Serves one built single-page app mounted at some path: hashed assets cached as immutable, pre-compressed twins
 * sent to browsers that accept them, a missing file answered 404, and any other path answered with index.html
 * (never cached without revalidation) so that client-side routes survive a reload. `skip` names requests that
 * belong to someone else (the API, another app mounted below this one).
 */
export function staticUi(directory: string, skip: (request: Request) => boolean) {
  const index = join(directory, 'index.html');
  const precompressed = findPrecompressed(directory);
  const files = express.static(directory, { index: false, maxAge: UNHASHED_MAX_AGE });

  return (request: Request, response: Response, next: NextFunction): void => {
    if (skip(request) || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    // Set before the file is sent, which then keeps it instead of writing its own.
    if (isHashedAsset(request.path)) response.setHeader('Cache-Control', HASHED_CACHE_CONTROL);
    const encodings = precompressed.get(request.path);
    if (encodings) {
      // Every answer for this path varies by what the browser accepts, the identity one included.
      response.setHeader('Vary', 'Accept-Encoding');
      const twin = chooseTwin(request.headers['accept-encoding'], encodings);
      if (twin) {
        // The type is the original file's, set first so that the twin's suffix does not decide it.
        response.type(extname(request.path));
        response.setHeader('Content-Encoding', twin.encoding);
        response.sendFile(join(directory, `${request.path}${twin.suffix}`), { maxAge: UNHASHED_MAX_AGE });
        return;
      }
    }
    files(request, response, () => {
      // A hashed file that is not there is one an older release named: answering it with index.html would hand a
      // script tag HTML to parse, where a 404 lets the page see the load fail. Other missing files are 404 too.
      if (isFileRequest(request.path)) {
        response.setHeader('Cache-Control', 'no-store');
        response.status(404).type('text').send('Not found');
        return;
      }
      response.setHeader('Cache-Control', 'no-cache');
      response.sendFile(index);
    });
  };
}
