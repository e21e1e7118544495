import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { PATTERNS } from '@kupa/proto';
import type { Test } from 'supertest';
import { adminToken, createActiveUser } from './identity-fixtures';
import {
  ACTORS,
  type ActorName,
  createMatrixPlan,
  type MatrixContext,
  type MatrixRow,
  ROUTE_MATRIX,
} from './route-matrix';
import type { TestApp } from './test-app';

/**
 * What each row of the route matrix accepts, read from the OpenAPI document the app itself serves: the hostile-input
 * and fuzz specs build their requests from it, so a new route (which the matrix must list) is covered by them too.
 */

/** The part of an OpenAPI schema the input specs read. */
export interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  nullable?: boolean;
  maximum?: number;
  maxLength?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  $ref?: string;
  allOf?: Schema[];
}

/** A date filter or instant: the document gives it proto's pattern, since a calendar day is not an OpenAPI date-time. */
export function isIsoDateTimeSchema(schema: Schema): boolean {
  return schema.pattern === PATTERNS.isoDateTime.source;
}

export interface RouteInputs {
  row: MatrixRow;
  /** `GET /api/users/{uuid}`. */
  name: string;
  /** The documented JSON body's properties, references resolved; empty when the route takes no body. */
  bodyProperties: Record<string, Schema>;
  /** The body's required properties. */
  bodyRequired: string[];
  /** The body is a provider's (a webhook's), documented open to any field: its sender, not a DTO, shapes it. */
  bodyOpen: boolean;
  /** The documented query parameters. */
  queryParameters: Record<string, Schema>;
  /** The path parameters, in order. */
  pathParameters: string[];
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: Array<{ in: string; name: string; schema?: Schema }>;
}

export function resolveSchema(schema: Schema | undefined, schemas: Record<string, Schema>): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolveSchema(schemas[schema.$ref.split('/').pop() ?? ''], schemas);
  if (schema.allOf)
    return schema.allOf.reduce<Schema>((merged, part) => ({ ...merged, ...resolveSchema(part, schemas) }), {});
  const resolved: Schema = { ...schema };
  if (schema.items) resolved.items = resolveSchema(schema.items, schemas);
  if (schema.properties) {
    resolved.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, resolveSchema(property, schemas)]),
    );
  }
  return resolved;
}

/** Every matrix row with its inputs; fails when a row names an operation the document lacks. */
export function routeInputs(testApp: TestApp): RouteInputs[] {
  const document = SwaggerModule.createDocument(testApp.app, new DocumentBuilder().build());
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  return ROUTE_MATRIX.map((row) => {
    const operation = (document.paths[row.path] as Record<string, Operation> | undefined)?.[row.method];
    if (!operation) throw new Error(`The OpenAPI document has no ${row.method.toUpperCase()} ${row.path}`);
    const body = resolveSchema(operation.requestBody?.content?.['application/json']?.schema, schemas);
    const parameters = operation.parameters ?? [];
    return {
      row,
      name: `${row.method.toUpperCase()} ${row.path}`,
      bodyProperties: body.properties ?? {},
      bodyRequired: body.required ?? [],
      bodyOpen: body.additionalProperties === true,
      queryParameters: Object.fromEntries(
        parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => [parameter.name, resolveSchema(parameter.schema, schemas)]),
      ),
      pathParameters: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
    };
  });
}

/** The actors among `candidates` that the guards let through on a row (those whose body validation decides). */
export function admittedActors(row: MatrixRow, candidates: readonly ActorName[] = ACTORS): ActorName[] {
  return candidates.filter((actor) => row.expect[actor] === 'pass' || row.expect[actor] === 400);
}

/** The row's URL with one path parameter replaced by `value` (encoded) and its own query string dropped or kept. */
export function urlWith(
  inputs: RouteInputs,
  context: MatrixContext,
  changes: { path?: Record<string, string>; query?: Record<string, string> | null },
): string {
  const [pathPart, ownQuery] = inputs.row.url(context).split('?');
  const template = inputs.row.path.split('/');
  const segments = pathPart.split('/').map((segment, index) => {
    const parameter = /^\{(.+)\}$/.exec(template[index] ?? '')?.[1];
    const replacement = parameter === undefined ? undefined : changes.path?.[parameter];
    return replacement === undefined ? segment : encodeURIComponent(replacement);
  });
  const query =
    changes.query === undefined
      ? (ownQuery ?? '')
      : new URLSearchParams(changes.query === null ? {} : changes.query).toString();
  return query ? `${segments.join('/')}?${query}` : segments.join('/');
}

/** The concrete value of a path parameter in the row's own URL (the context's id). */
export function pathValue(inputs: RouteInputs, context: MatrixContext, parameter: string): string {
  const index = inputs.row.path.split('/').indexOf(`{${parameter}}`);
  return decodeURIComponent(inputs.row.url(context).split('?')[0].split('/')[index]);
}

let nextAddress = 0;

/**
 * A call as `token`'s holder from a client address of its own: the rate limits count per address, and these specs
 * send far more requests to the mail and sign-in routes than one address may.
 */
export function call(
  testApp: TestApp,
  method: MatrixRow['method'],
  url: string,
  token: string | null,
  body?: unknown,
): Test {
  nextAddress += 1;
  let request = testApp.http[method](url).set(
    'X-Forwarded-For',
    `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`,
  );
  if (token) request = request.set('Authorization', `Bearer ${token}`);
  if (body === undefined) return request;
  if (typeof body === 'string') return request.set('Content-Type', 'application/json').send(body);
  return request.send(body as object);
}

/**
 * A client with a note and a payment of its own, an ACTIVE package, and an admin, as the route matrix uses them: the URLs of
 * `ROUTE_MATRIX` are filled from the context.
 */
export async function clientAndAdmin(
  testApp: TestApp,
): Promise<{ tokens: { client: string; admin: string }; context: MatrixContext }> {
  const client = await createActiveUser(testApp, { role: 'CLIENT' });
  const admin = await adminToken(testApp);
  const note = await testApp.http
    .post(`/api/users/${client.userUuid}/notes`)
    .set('Authorization', `Bearer ${admin}`)
    .send({ text: 'hostile input note' })
    .expect(201);
  const deposit = await testApp.http
    .post('/api/payments')
    .set('Authorization', `Bearer ${admin}`)
    .send({ userUuid: client.userUuid, amount: 10, action: 'DEPOSIT', comment: 'hostile input deposit' })
    .expect(201);
  return {
    tokens: { client: client.accessToken, admin },
    context: {
      clientUuid: client.userUuid,
      clientNoteId: note.body.id,
      clientPaymentId: deposit.body.paymentId,
      planId: await createMatrixPlan(testApp, admin),
      // The deposit above is the first payment of this database that earns a receipt.
      clientReceiptNumber: 1,
    },
  };
}
