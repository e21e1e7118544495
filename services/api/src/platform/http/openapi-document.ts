import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * What @nestjs/swagger cannot say from the decorators, written into the generated document before it is served
 * (docs/adr/0060-the-document-says-what-the-server-enforces.md):
 * - request bodies are closed (`additionalProperties: false`): the validation pipe refuses unknown fields;
 * - a nullable reference or composition admits null the way OpenAPI 3.0.3 readers understand it: `nullable` only
 *   adds null to the schema's own `type`, so it does not reach into `allOf`/`oneOf`, nor past an `enum`;
 * - an operation that names no credential is public, and says so (`security: []`);
 * - the server is the origin the document is served from.
 */

type Schema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
const COMPOSITIONS = ['allOf', 'oneOf', 'anyOf'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** The one value null, as a 3.0 schema: `nullable` adds null to the type, `enum` then keeps only null. */
const NULL_SCHEMA = Object.freeze({ type: 'object', nullable: true, enum: [null] });

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schemas directly inside `schema`: properties, items, compositions, additional properties. */
function childSchemas(schema: Schema): Schema[] {
  const children: unknown[] = [];
  if (isSchema(schema.properties)) children.push(...Object.values(schema.properties));
  children.push(schema.items, schema.additionalProperties, schema.not);
  for (const key of COMPOSITIONS) if (Array.isArray(schema[key])) children.push(...(schema[key] as unknown[]));
  return children.filter(isSchema);
}

function operationsOf(document: OpenAPIObject): Schema[] {
  return Object.values(document.paths).flatMap((item) =>
    METHODS.map((method) => (item as Schema)[method]).filter(isSchema),
  );
}

/** Every object schema a JSON request body reaches, through refs into the components, is closed unless it says. */
function closeRequestBodies(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<Schema>();
  const close = (schema: Schema): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
      const target = components[ref.slice(REF_PREFIX.length)];
      if (target) close(target);
      return;
    }
    const isObject = schema.type === 'object' || isSchema(schema.properties);
    if (isObject && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const child of childSchemas(schema)) close(child);
  };
  for (const operation of operationsOf(document)) {
    const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
    for (const [mediaType, media] of Object.entries(body?.content ?? {})) {
      if (mediaType === 'application/json' && isSchema(media.schema)) close(media.schema);
    }
  }
}

/**
 * `{nullable, allOf: [{$ref}]}` (what @nestjs/swagger writes for a nullable class) and `{nullable, oneOf: […]}` refuse
 * null in a 3.0.3 reader, since null fails every alternative: null becomes an alternative of its own. A nullable
 * `enum` gets null among its values.
 */
function admitNull(schema: Schema): void {
  for (const child of childSchemas(schema)) admitNull(child);
  if (schema.nullable !== true) return;
  const composition = COMPOSITIONS.find((key) => Array.isArray(schema[key]));
  if (composition) {
    const alternatives = schema[composition] as Schema[];
    delete schema.type;
    delete schema.nullable;
    // An inline alternative with a type of its own takes null too; else null is an alternative of its own.
    const typed = composition === 'allOf' ? undefined : alternatives.find((alternative) => 'type' in alternative);
    if (typed) {
      typed.nullable = true;
      admitNull(typed);
      return;
    }
    delete schema.allOf;
    // allOf of several parts must hold together; of one part it is that part.
    const kept = composition !== 'allOf' || alternatives.length === 1 ? alternatives : [{ allOf: alternatives }];
    schema[composition === 'anyOf' ? 'anyOf' : 'oneOf'] = [...kept, { ...NULL_SCHEMA, enum: [null] }];
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
}

/** The generated document, amended to say what the server enforces (see above). Changes `document` in place. */
export function tightenOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  closeRequestBodies(document);
  for (const schema of Object.values(document.components?.schemas ?? {})) if (isSchema(schema)) admitNull(schema);
  for (const operation of operationsOf(document)) {
    const parameters = Array.isArray(operation.parameters) ? (operation.parameters as Schema[]) : [];
    for (const parameter of parameters) if (isSchema(parameter.schema)) admitNull(parameter.schema);
    const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
    const responses = Object.values((operation.responses ?? {}) as Record<string, typeof body>);
    for (const holder of [body, ...responses]) {
      for (const media of Object.values(holder?.content ?? {})) if (isSchema(media.schema)) admitNull(media.schema);
    }
    if (operation.security === undefined) operation.security = [];
  }
  if (!document.servers || document.servers.length === 0) {
    document.servers = [{ url: '/', description: 'The origin this document is served from' }];
  }
  return document;
}
