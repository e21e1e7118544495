import { type Exchange, OpenApiContract, type OpenApiDocument } from './openapi-contract';

/** The checker the test app runs on every call: it must refuse what the document does not describe. */
const DOCUMENT: OpenApiDocument = {
  openapi: '3.0.0',
  paths: {
    '/api/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/api/things/mine': {
      get: { responses: { '204': {} } },
    },
    '/api/things': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['amount'],
                properties: { amount: { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.01 } },
              },
            },
          },
        },
        responses: {
          '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/api/things/export': {
      post: {
        responses: {
          '200': {
            content: { 'text/csv': { schema: { type: 'string' } } },
            headers: { 'Content-Disposition': { required: true, schema: { type: 'string' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'parent'],
        properties: {
          id: { type: 'integer' },
          parent: {
            oneOf: [{ $ref: '#/components/schemas/Ref' }, { type: 'object', nullable: true, enum: [null] }],
          },
          // What @nestjs/swagger writes for a nullable class, which a 3.0.3 reader refuses null for.
          loose: { nullable: true, allOf: [{ $ref: '#/components/schemas/Ref' }] },
          status: { type: 'string', enum: ['A', 'B'], nullable: true },
        },
      },
      Ref: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
      Error: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } },
    },
  },
};

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function exchange(overrides: Partial<Exchange>): Exchange {
  return {
    method: 'GET',
    url: '/api/things/7',
    requestHeaders: {},
    requestBody: undefined,
    status: 200,
    responseHeaders: JSON_TYPE,
    responseBody: { id: 7, parent: null },
    ...overrides,
  };
}

describe('OpenApiContract', () => {
  const contract = new OpenApiContract(DOCUMENT);

  it('accepts calls the document describes, nullable refs and literal paths included', () => {
    expect(contract.check(exchange({}))).toEqual([]);
    const uuid = '7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e';
    expect(contract.check(exchange({ responseBody: { id: 7, parent: { id: uuid } } }))).toEqual([]);
    expect(
      contract.check(exchange({ url: '/api/things/mine', status: 204, responseHeaders: {}, responseBody: '' })),
    ).toEqual([]);
    expect(
      contract.check(exchange({ method: 'POST', url: '/api/things', requestBody: { amount: 12.34 }, status: 201 })),
    ).toEqual([]);
  });

  it('reads nullable as OpenAPI 3.0.3 does: null joins the own type only, not a composition or an enum', () => {
    expect(contract.check(exchange({ responseBody: { id: 7, parent: null } }))).toEqual([]);
    expect(contract.check(exchange({ responseBody: { id: 7, parent: null, loose: null } }))[0]).toMatch(/loose/);
    expect(contract.check(exchange({ responseBody: { id: 7, parent: null, status: null } }))[0]).toMatch(/status/);
    expect(contract.check(exchange({ responseBody: { id: 7, parent: null, status: 'A' } }))).toEqual([]);
  });

  it('refuses unknown paths, methods and statuses', () => {
    expect(contract.check(exchange({ url: '/api/nothing' }))).toEqual(['no path of the document matches /api/nothing']);
    expect(contract.check(exchange({ method: 'DELETE' }))).toEqual(['/api/things/{id} has no DELETE operation']);
    expect(contract.check(exchange({ status: 409 }))).toEqual(['GET /api/things/{id} does not list status 409']);
  });

  it('refuses answers whose body, fields or content type the document does not describe', () => {
    expect(contract.check(exchange({ responseBody: { id: 'seven', parent: null } }))[0]).toMatch(/must be integer/);
    expect(contract.check(exchange({ responseBody: { id: 7, parent: null, extra: 1 } }))[0]).toMatch(
      /additional properties/,
    );
    expect(contract.check(exchange({ responseBody: { id: 7, parent: { id: 'x' } } }))[0]).toMatch(/uuid/);
    expect(contract.check(exchange({ responseHeaders: { 'content-type': 'text/html' } }))[0]).toMatch(
      /content type text\/html/,
    );
    expect(contract.check(exchange({ url: '/api/things/mine', status: 204, responseBody: { id: 1 } }))[0]).toMatch(
      /a body where none is listed/,
    );
  });

  it('refuses an accepted request the document would refuse, but not a refused one', () => {
    const post = (amount: unknown, status: number) =>
      contract.check(
        exchange({
          method: 'POST',
          url: '/api/things',
          requestBody: { amount },
          status,
          responseBody: status === 201 ? { id: 1, parent: null } : { status },
        }),
      );
    expect(post(0, 201)[0]).toMatch(/accepted body/);
    expect(post(1.234, 201)[0]).toMatch(/multiple of 0.01/);
    expect(post(0, 400)).toEqual([]);
    expect(contract.check(exchange({ url: '/api/things/0' }))[0]).toMatch(/path id=0/);
    expect(contract.check(exchange({ url: '/api/things/0', status: 404, responseBody: { status: 404 } }))).toEqual([]);
    expect(contract.check(exchange({ url: '/api/things/7?x=1' }))[0]).toMatch(/query parameter x is not documented/);
  });

  it('checks required response headers and text bodies', () => {
    const csv = (headers: Record<string, string>) =>
      contract.check(
        exchange({
          method: 'POST',
          url: '/api/things/export',
          responseHeaders: { 'content-type': 'text/csv; charset=utf-8', ...headers },
          responseBody: 'a,b\r\n',
        }),
      );
    expect(csv({ 'content-disposition': 'attachment; filename="x.csv"' })).toEqual([]);
    expect(csv({})).toEqual(['POST /api/things/export 200: no Content-Disposition header']);
  });
});
