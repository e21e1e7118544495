import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks HTTP exchanges against the API's own OpenAPI document (`/api/docs/openapi.json`). The test app runs every
 * call the API specs make through it, so the document stays complete and true: a path, method or status it does not
 * list, a response body or content type it does not describe, or an accepted request it would refuse, fails the test
 * that made the call.
 */

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Exchange {
  method: string;
  /** The path and query the client called, e.g. `/api/users/me?x=1`. */
  url: string;
  requestHeaders: Record<string, string>;
  /** The body as sent, `undefined` when none. */
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or the text of other content types. */
  responseBody: unknown;
}

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  literalSegments: number;
}

const REF_PREFIX = '#/components/schemas/';

/**
 * OpenAPI 3.0 schemas are close to JSON Schema draft 7; these are the differences Ajv needs bridged: `nullable`
 * (read strictly, as 3.0.3 says), boolean `exclusiveMinimum`/`exclusiveMaximum`, and refs into `components`.
 * Objects with declared properties are closed (`additionalProperties: false`) unless they say otherwise, so an
 * answer that carries a field the document does not list fails.
 */
function toJsonSchema(schema: unknown, closeObjects: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, closeObjects));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Schema;
  const result: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
      result.$ref = `#/definitions/${value.slice(REF_PREFIX.length)}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      result.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, property]) => [name, toJsonSchema(property, closeObjects)]),
      );
    } else if (key === 'example' || key === 'examples') {
      continue;
    } else {
      result[key] = toJsonSchema(value, closeObjects);
    }
  }
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const exclusive = `exclusive${bound}`;
    if (typeof result[exclusive] === 'boolean') {
      const limit = bound === 'Minimum' ? 'minimum' : 'maximum';
      if (result[exclusive] === true) {
        result[exclusive] = result[limit];
        delete result[limit];
      } else {
        delete result[exclusive];
      }
    }
  }
  if (closeObjects && result.properties && result.additionalProperties === undefined) {
    result.additionalProperties = false;
  }
  if (result.nullable === true) {
    // As OpenAPI 3.0.3 reads it: null joins the schema's own type and nothing else, so an `enum` without null or a
    // composition whose parts refuse null still refuses it (platform/http/openapi-document.ts writes them so).
    delete result.nullable;
    if (typeof result.type === 'string') result.type = [result.type, 'null'];
  }
  return result;
}

function mediaTypeOf(contentType: string | undefined): string | null {
  return contentType ? contentType.split(';')[0].trim().toLowerCase() : null;
}

function isJson(mediaType: string | null): boolean {
  return mediaType === 'application/json' || (mediaType?.endsWith('+json') ?? false);
}

export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    // `multipleOfPrecision` lets 12.34 be a multiple of 0.01 despite binary floating point.
    this.ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 8 });
    addFormats(this.ajv);
    this.routes = Object.keys(document.paths)
      .map((template) => {
        const names: string[] = [];
        const segments = template.split('/');
        const source = segments
          .map((segment) => {
            const parameter = /^\{(\w+)\}$/.exec(segment);
            if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(parameter[1]);
            return '([^/]+)';
          })
          .join('/');
        return {
          template,
          pattern: new RegExp(`^${source}$`),
          names,
          literalSegments: segments.length - names.length,
        };
      })
      // A literal segment beats a parameter: `/api/users/me` is not `/api/users/{uuid}`.
      .sort((left, right) => right.literalSegments - left.literalSegments);
  }

  /** The problems of one exchange; empty when the document describes it. */
  check(exchange: Exchange): string[] {
    const [path, query = ''] = exchange.url.split('?', 2);
    const method = exchange.method.toLowerCase();
    const candidates = this.routes.filter((route) => route.pattern.test(path));
    const route = candidates.find((candidate) => this.document.paths[candidate.template][method]);
    if (!route) {
      return candidates.length === 0
        ? [`no path of the document matches ${path}`]
        : [`${candidates[0].template} has no ${method.toUpperCase()} operation`];
    }
    const where = `${method.toUpperCase()} ${route.template}`;
    const operation = this.document.paths[route.template][method];
    const response = operation.responses[String(exchange.status)];
    if (!response) return [`${where} does not list status ${exchange.status}`];
    const problems: string[] = [];
    if (exchange.status < 300) problems.push(...this.checkRequest(where, operation, route, path, query, exchange));
    problems.push(...this.checkResponse(where, response, exchange));
    return problems;
  }

  private checkRequest(
    where: string,
    operation: Operation,
    route: Route,
    path: string,
    query: string,
    exchange: Exchange,
  ): string[] {
    const problems: string[] = [];
    const pathValues = route.pattern.exec(path)?.slice(1) ?? [];
    const queryValues = new URLSearchParams(query);
    for (const parameter of operation.parameters ?? []) {
      let value: string | undefined;
      if (parameter.in === 'path') value = decodeURIComponent(pathValues[route.names.indexOf(parameter.name)] ?? '');
      else if (parameter.in === 'query') value = queryValues.get(parameter.name) ?? undefined;
      else if (parameter.in === 'header') value = exchange.requestHeaders[parameter.name.toLowerCase()];
      else continue;
      if (value === undefined) {
        if (parameter.required) problems.push(`${where}: the accepted call lacks ${parameter.in} ${parameter.name}`);
        continue;
      }
      const schema = parameter.schema ?? {};
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      const errors = this.validate(`${where} ${parameter.in} ${parameter.name}`, schema, typed, false);
      if (errors) problems.push(`${where}: the accepted ${parameter.in} ${parameter.name}=${value} ${errors}`);
    }
    const allowed = new Set(
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    );
    for (const name of queryValues.keys()) {
      if (!allowed.has(name)) problems.push(`${where}: the accepted query parameter ${name} is not documented`);
    }
    const body = exchange.requestBody;
    const media = operation.requestBody?.content['application/json'];
    if (media?.schema) {
      if (body === undefined) {
        if (operation.requestBody?.required) problems.push(`${where}: the accepted call has no body`);
      } else {
        const errors = this.validate(`${where} request`, media.schema, body, true);
        if (errors) problems.push(`${where}: the accepted body ${JSON.stringify(body)} ${errors}`);
      }
    }
    return problems;
  }

  private checkResponse(where: string, response: ResponseObject, exchange: Exchange): string[] {
    const status = exchange.status;
    const problems: string[] = [];
    const headerOf = (name: string) => exchange.responseHeaders[name.toLowerCase()];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && headerOf(name) === undefined) problems.push(`${where} ${status}: no ${name} header`);
    }
    const mediaType = mediaTypeOf(headerOf('content-type') as string | undefined);
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) {
      const empty = exchange.responseBody === undefined || exchange.responseBody === '';
      if (!empty) problems.push(`${where} ${status}: a body where none is listed`);
      return problems;
    }
    const media = mediaType ? content[mediaType] : undefined;
    if (!media) {
      problems.push(`${where} ${status}: content type ${mediaType} is not one of ${Object.keys(content).join(', ')}`);
      return problems;
    }
    if (media.schema && isJson(mediaType)) {
      const errors = this.validate(`${where} ${status}`, media.schema, exchange.responseBody, true);
      if (errors) problems.push(`${where} ${status}: the body ${errors}`);
    } else if (media.schema?.type === 'string' && typeof exchange.responseBody !== 'string') {
      problems.push(`${where} ${status}: the ${mediaType} body is not text`);
    }
    return problems;
  }

  private validate(key: string, schema: Schema, value: unknown, closeObjects: boolean): string | null {
    let validator = this.validators.get(key);
    if (!validator) {
      const definitions = Object.fromEntries(
        Object.entries(this.document.components?.schemas ?? {}).map(([name, definition]) => [
          name,
          toJsonSchema(definition, closeObjects),
        ]),
      );
      validator = this.ajv.compile({ allOf: [toJsonSchema(schema, closeObjects)], definitions });
      this.validators.set(key, validator);
    }
    if (validator(value)) return null;
    return (validator.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
      .join('; ');
  }
}
