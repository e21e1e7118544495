import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from './test-support/openapi-contract';
import { ROUTE_MATRIX } from './test-support/route-matrix';
import { startTestApp, type TestApp } from './test-support/test-app';

/**
 * The OpenAPI document itself: valid OpenAPI 3, and complete in the ways the per-call checks of the test app cannot
 * see (statuses no spec happens to provoke). Every call the API specs make is checked against it as it happens
 * (`test-support/openapi-recorder.ts`).
 */

/** The validator is an ES module, which jest's CommonJS registry cannot load; a child Node process can. */
const VALIDATE = `
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFile } from 'node:fs/promises';
const result = await new Validator().validate(JSON.parse(await readFile(process.argv[1], 'utf8')));
process.stdout.write(JSON.stringify(result));
`;

type Operation = OpenApiDocument['paths'][string][string] & {
  security?: Record<string, string[]>[];
  operationId?: string;
};

describe('the OpenAPI document', () => {
  let testApp: TestApp;
  let document: OpenApiDocument;
  const operations: [string, Operation][] = [];

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false });
    document = (await testApp.rawHttp.get('/api/docs/openapi.json').expect(200)).body as OpenApiDocument;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations.push([`${method.toUpperCase()} ${path}`, operation as Operation]);
      }
    }
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('validates against the OpenAPI 3 schema', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kupa-openapi-'));
    try {
      const file = join(directory, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', VALIDATE, file], {
        cwd: __dirname,
      });
      expect(JSON.parse(stdout)).toEqual({ valid: true });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    expect(document.openapi).toMatch(/^3\.0\./);
  });

  it('gives every operation its success answer with a schema, or says it has no body', () => {
    const missing = operations.filter(([, operation]) => {
      const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      if (successes.length !== 1) return true;
      const [status, response] = successes[0];
      if (status === '204') return response.content !== undefined;
      const media = Object.values(response.content ?? {});
      return media.length === 0 || media.some((entry) => entry.schema === undefined);
    });
    expect(missing.map(([name]) => name)).toEqual([]);
  });

  it('lists 400, 413, 415 and 500 on every operation, and 401 and 403 on every one that needs a bearer token', () => {
    const incomplete = operations
      .map(([name, operation]) => {
        const bearer = (operation.security ?? []).some((requirement) => 'bearer' in requirement);
        const wanted = ['400', '413', '415', '500', ...(bearer ? ['401', '403'] : [])];
        const lacking = wanted.filter((status) => !operation.responses[status]);
        return lacking.length > 0 ? `${name} lacks ${lacking.join(', ')}` : null;
      })
      .filter((problem) => problem !== null);
    expect(incomplete).toEqual([]);
  });

  it('asks for a credential (bearer, or a refresh cookie) exactly where the route matrix refuses anonymous callers', () => {
    const mismatched = operations
      .map(([name, operation]) => {
        const row = ROUTE_MATRIX.find((candidate) => `${candidate.method.toUpperCase()} ${candidate.path}` === name);
        if (!row) return `${name} has no route-matrix row`;
        // A credential is required when no alternative of the security requirement is empty.
        const security = operation.security ?? [];
        const required = security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
        return required === (row.expect.anonymous === 401) ? null : `${name}: credential required ${required}`;
      })
      .filter((problem) => problem !== null);
    expect(mismatched).toEqual([]);
  });

  it('answers every error with the one error body', () => {
    const errorBody = { $ref: '#/components/schemas/ApiErrorBodyDto' };
    const others = operations.flatMap(([name, operation]) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .filter(
          ([, response]) =>
            JSON.stringify(response.content) !== JSON.stringify({ 'application/json': { schema: errorBody } }),
        )
        .map(([status]) => `${name} ${status}`),
    );
    expect(others).toEqual([]);
    expect(document.components?.schemas?.ApiErrorBodyDto).toMatchObject({
      required: ['status', 'error', 'message'],
    });
  });

  it('types every path id: an integer from 1, a uuid, or a described pattern', () => {
    const loose = operations.flatMap(([name, operation]) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .filter((parameter) => {
          const schema = parameter.schema ?? {};
          if (schema.type === 'integer') return schema.minimum !== 1;
          if (schema.format === 'uuid') return false;
          return !(parameter as { description?: string }).description;
        })
        .map((parameter) => `${name} {${parameter.name}}`),
    );
    expect(loose).toEqual([]);
  });

  it('documents the refresh cookies, the app header and the idempotency key where they are read', () => {
    const schemes = (document.components as { securitySchemes?: Record<string, unknown> }).securitySchemes ?? {};
    for (const name of ['kupa_refresh', 'kupa_refresh_admin', 'kupa_refresh_client']) {
      expect(schemes[name]).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name }));
    }
    const operation = (name: string) => operations.find(([candidate]) => candidate === name)?.[1];
    const headers = (name: string) =>
      (operation(name)?.parameters ?? []).filter((parameter) => parameter.in === 'header').map(({ name }) => name);
    for (const route of ['POST /api/auth/signin', 'POST /api/auth/token/refresh', 'POST /api/auth/logout']) {
      expect(headers(route)).toContain('X-Kupa-App');
    }
    expect(operation('POST /api/auth/token/refresh')?.security).toEqual([
      { kupa_refresh: [] },
      { kupa_refresh_admin: [] },
      { kupa_refresh_client: [] },
    ]);
    for (const route of ['POST /api/payments', 'POST /api/payments/transfer']) {
      expect(headers(route)).toContain('Idempotency-Key');
    }
    const csv = operation('POST /api/payments/export')?.responses['200'];
    expect(Object.keys(csv?.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(csv?.headers ?? {})).toContain('Content-Disposition');
  });
});
