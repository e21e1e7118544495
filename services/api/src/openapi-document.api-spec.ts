import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkPassword, checkRecipient, LIMITS } from '@kupa/proto';
import { repositoryRoot } from './platform/config';
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

  it('is the document checked in as docs/openapi.json, which `npm run lint` lints', async () => {
    const file = join(repositoryRoot(), 'docs', 'openapi.json');
    // The test app's version; the checked-in copy names none that a release would have to change.
    const { info } = document as { info?: object };
    const text = `${JSON.stringify({ ...document, info: { ...info, version: '0.0.0' } }, null, 2)}\n`;
    if (process.env.KUPA_WRITE_OPENAPI === '1') await writeFile(file, text);
    expect(await readFile(file, 'utf8').catch(() => 'missing')).toBe(text);
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

  /** Every schema in the document with where it is, nested ones included. */
  const everySchema = (): Array<[string, Record<string, unknown>]> => {
    const found: Array<[string, Record<string, unknown>]> = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${at}/${index}`));
      else if (node !== null && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if ('type' in record || '$ref' in record || 'nullable' in record || 'allOf' in record || 'oneOf' in record)
          found.push([at, record]);
        for (const [key, value] of Object.entries(record)) walk(value, `${at}/${key}`);
      }
    };
    walk(document, '#');
    return found;
  };
  const component = (name: string) =>
    (document.components?.schemas?.[name] ?? {}) as { properties?: Record<string, Record<string, unknown>> };

  it('closes every request body: the server refuses unknown fields, so the document does too', () => {
    const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
    const open: string[] = [];
    const seen = new Set<unknown>();
    const visit = (schema: Record<string, unknown>, at: string): void => {
      if (seen.has(schema)) return;
      seen.add(schema);
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.replace('#/components/schemas/', '');
        visit(schemas[name] ?? {}, name);
        return;
      }
      if ((schema.type === 'object' || schema.properties) && schema.additionalProperties !== false) open.push(at);
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, property] of Object.entries(properties)) visit(property, `${at}.${name}`);
      if (schema.items) visit(schema.items as Record<string, unknown>, `${at}[]`);
      for (const key of ['allOf', 'oneOf', 'anyOf'])
        for (const part of (schema[key] ?? []) as Record<string, unknown>[]) visit(part, `${at} ${key}`);
    };
    const requestBodies = operations.flatMap(([name, operation]) => {
      const schema = (operation as { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } })
        .requestBody?.content?.['application/json']?.schema;
      return schema ? [[name, schema] as const] : [];
    });
    expect(requestBodies.length).toBeGreaterThan(30);
    // The providers' webhooks are theirs to shape: they stay open, and say so.
    const webhooks = ['POST /api/stripe/webhook', 'POST /api/payments/crypto/ipn'];
    for (const [name, schema] of requestBodies) {
      if (webhooks.includes(name)) expect(schema.additionalProperties).toBe(true);
      else visit(schema, name);
    }
    expect(open).toEqual([]);
  });

  it('gives a new password the whole rule: its lengths and a pattern that accepts what checkPassword accepts', () => {
    const samples = ['Abcdef1!', 'abcdef1!', 'ABCDEF1!', 'Abcdefg!', 'Abcdefg1', 'Abcdef1 !', 'Abcdef1!ש', 'Ab1!'];
    for (const name of [
      'SignUpRequestDto',
      'ResetPasswordRequestDto',
      'ChangePasswordRequestDto',
      'CreateUserRequestDto',
    ]) {
      const schema = component(name).properties?.password ?? {};
      expect(schema).toMatchObject({ minLength: LIMITS.passwordMinLength, maxLength: LIMITS.passwordMaxLength });
      const pattern = new RegExp(String(schema.pattern));
      const byDocument = samples.filter((sample) => pattern.test(sample) && sample.length >= LIMITS.passwordMinLength);
      expect(byDocument).toEqual(samples.filter((sample) => checkPassword(sample) === null));
    }
  });

  it('types the transfer recipient as text of either accepted form', () => {
    const samples = ['12345678', 'dana@example.com', '1234567', '123456789', 'dana', ' 12345678'];
    for (const name of ['TransferBalanceRequestDto', 'LookUpTransferRecipientRequestDto']) {
      const schema = component(name).properties?.recipient ?? {};
      expect(schema.type).toBe('string');
      const pattern = new RegExp(String(schema.pattern));
      expect(samples.filter((sample) => pattern.test(sample))).toEqual(
        samples.filter((sample) => checkRecipient(sample) === null),
      );
    }
  });

  it('bounds the two-factor codes as the validators do', () => {
    expect(component('TwoFactorCodeRequestDto').properties?.code).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.otpMaxLength,
    });
    expect(component('SignInRequestDto').properties?.otp).toMatchObject({ maxLength: LIMITS.otpMaxLength });
  });

  it('has no two paths that differ only by the names of their parameters', () => {
    const shapes = Object.keys(document.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.filter((shape, index) => shapes.indexOf(shape) !== index)).toEqual([]);
  });

  it('admits null where it says nullable, as OpenAPI 3.0.3 reads it: no $ref siblings, no nullable compositions', () => {
    const problems = everySchema().flatMap(([at, schema]) => {
      const found: string[] = [];
      if ('$ref' in schema && Object.keys(schema).length > 1) found.push(`${at}: $ref with siblings`);
      if (schema.nullable === true && !('type' in schema)) found.push(`${at}: nullable without a type`);
      if (schema.nullable === true && ['allOf', 'oneOf', 'anyOf'].some((key) => key in schema))
        found.push(`${at}: nullable beside a composition`);
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
        found.push(`${at}: nullable enum without null`);
      return found;
    });
    expect(problems).toEqual([]);
    // The nullable references are there, written as an alternative of their own.
    expect(component('AuditLogDto').properties?.parent).toEqual({
      oneOf: [{ $ref: '#/components/schemas/AuditRefDto' }, { type: 'object', nullable: true, enum: [null] }],
    });
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
