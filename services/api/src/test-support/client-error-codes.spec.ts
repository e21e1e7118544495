import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { CLIENT_ERROR_CATALOGUE, STAFF_ERROR_CATALOGUE } from '@kupa/proto';
import { ROUTE_MATRIX, type MatrixRow } from './route-matrix';

/**
 * The client portal carries only the client part of proto's error catalogue (docs/adr/0048, the catalogue split): a
 * staff-only code reaching it shows the generic message. This spec keeps the split true where it can see: every route
 * the route × role matrix lets a client, an ambassador or someone signed out through is found by its controller, and
 * no error code written in that controller's use-case folder may be staff-only.
 *
 * What it cannot see: codes a route meets outside its own folder (the context's `domain/` deciders and error
 * factories, `application/` flows, `platform/` guards, pipes and filters, codes computed at run time). Those are
 * shared by staff and client routes alike, so a folder walk cannot tell who meets them; the split was decided for them
 * by reading the handlers, and any doubt went to the client part.
 */

const SOURCE_ROOT = join(__dirname, '..');
const API_PREFIX = '/api';
const METHODS = { Get: 'get', Post: 'post', Put: 'put', Delete: 'delete' } as const;
const CODE_LITERAL = /'(error\.[a-z0-9.]+)'/g;

interface Route {
  method: MatrixRow['method'];
  path: string;
  controllerFile: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(spec|int-spec|api-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Each route of a controller file, as the OpenAPI path the matrix names (`:uuid` → `{uuid}`). */
function routesOf(controllerFile: string): Route[] {
  const source = readFileSync(controllerFile, 'utf8');
  const prefix = /@Controller\('([^']*)'\)/.exec(source)?.[1];
  if (prefix === undefined) return [];
  return [...source.matchAll(/@(Get|Post|Put|Delete)\((?:'([^']*)')?\)/g)].map((match) => {
    const segments = [API_PREFIX, prefix, match[2] ?? ''].flatMap((part) => part.split('/')).filter(Boolean);
    return {
      method: METHODS[match[1] as keyof typeof METHODS],
      path: '/' + segments.map((segment) => segment.replace(/^:(\w+)$/, '{$1}')).join('/'),
      controllerFile,
    };
  });
}

const GUARD_REFUSALS = new Set([401, 403]);
/** The matrix lets a client, an ambassador or someone signed out past the guards. */
const clientCallable = (row: MatrixRow) =>
  (['anonymous', 'client', 'ambassador'] as const).some((actor) => !GUARD_REFUSALS.has(row.expect[actor] as number));

const controllers = sourceFiles(join(SOURCE_ROOT, 'contexts')).filter((file) => file.endsWith('.controller.ts'));
const routes = controllers.flatMap(routesOf);
const clientRows = ROUTE_MATRIX.filter(clientCallable);

describe('the error codes of routes a client may call (docs/adr/0048, the catalogue split)', () => {
  it('finds the controllers of the matrix rows a client may call', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(clientRows.length).toBeGreaterThan(30);
    const matched = clientRows.filter((row) => routes.some((r) => r.method === row.method && r.path === row.path));
    // Rows served outside the contexts (platform: health, metrics, the sandboxes) have no controller here.
    expect(matched.length / clientRows.length).toBeGreaterThan(0.8);
  });

  it('throws no staff-only code from a client-callable route’s use-case folder', () => {
    const folders = new Set(
      clientRows.flatMap((row) =>
        routes.filter((r) => r.method === row.method && r.path === row.path).map((r) => dirname(r.controllerFile)),
      ),
    );
    const staffOnly: string[] = [];
    for (const folder of folders) {
      for (const file of sourceFiles(folder)) {
        for (const [, code] of readFileSync(file, 'utf8').matchAll(CODE_LITERAL)) {
          if (Object.hasOwn(STAFF_ERROR_CATALOGUE, code)) staffOnly.push(`${relative(SOURCE_ROOT, file)}: ${code}`);
          else expect(Object.hasOwn(CLIENT_ERROR_CATALOGUE, code) ? code : `unknown ${code}`).toBe(code);
        }
      }
    }
    expect(staffOnly).toEqual([]);
  });

  it('names no staff-only code in the portal or in the shared rules its forms check with', () => {
    // The portal formats these codes itself (a form's own check before anything is sent, a page's own message), so
    // each must be one it carries. Found before: `error.validation.must.be.positive`, which proto's amount rule gives
    // the transfer form, had gone to the staff part.
    const repository = join(SOURCE_ROOT, '..', '..', '..');
    const portalFiles = (readdirSync(join(repository, 'client-ui', 'src'), { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => join(repository, 'client-ui', 'src', file));
    const ruleFiles = ['validation.ts', 'money.ts'].map((file) => join(repository, 'proto', 'src', file));
    const named = new Map<string, string>();
    for (const file of [...portalFiles, ...ruleFiles]) {
      for (const match of readFileSync(file, 'utf8').matchAll(CODE_LITERAL))
        named.set(match[1], relative(repository, file));
    }
    expect(named.size).toBeGreaterThan(10);
    const staffOnly = [...named].filter(([code]) => code in STAFF_ERROR_CATALOGUE);
    expect(staffOnly).toEqual([]);
  });
});
