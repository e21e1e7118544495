import { isErrorCode } from '@kupa/proto';
import fc from 'fast-check';
import { createActiveUser } from '../../test-support/identity-fixtures';
import type { MatrixContext } from '../../test-support/route-matrix';
import {
  call,
  clientAndAdmin,
  isIsoDateTimeSchema,
  type RouteInputs,
  routeInputs,
  type Schema,
  urlWith,
} from '../../test-support/route-inputs';
import { UNREACHABLE_STRIPE_ENV } from '../../test-support/fake-stripe';
import { startTestApp, type TestApp } from '../../test-support/test-app';

/** Fixed, so that a failure is reproduced by running the file again; change it to explore further. */
const SEED = 20_261_123;
/** Cases per route, each sent as the client and as an admin: about a second per route on a loaded two-core machine. */
const RUNS_PER_ROUTE = 20;
/**
 * The property's time bound. It grows with the matrix (every new route adds about a second), so it is set far above
 * today's ~70 s rather than at the suite's default minute, which new routes would otherwise quietly outgrow.
 */
const FUZZ_TIMEOUT_MS = 6 * 60_000;
/**
 * Query and path values stay well inside Node's 16 KiB limit on a request head: beyond it Node itself answers 431
 * without a body before the app runs (docs/adr/0014-hostile-input.md).
 */
const URL_TEXT_MAX = 1000;

/** Text that has broken services before: control and invisible characters, bidi overrides, broken UTF-16. */
const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  '\u202e\u2066',
  '\u200b\u200c\u200d\u2060\ufeff',
  '\u00ad',
  '\uff20',
  'p\u0430ypal.com',
  'דנה כהן',
  '👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  "'; DROP TABLE users; --",
  '%00',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  '2026-02-30',
  '1e309',
  '-0',
  'NaN',
];

/** The odd texts that broke this API before it refused them (docs/adr/0014-hostile-input.md): tried most often. */
const KNOWN_BREAKERS = ['a\u0000b', '\ud800', 'constructor', '__proto__', 'toString', '2026-02-30'];

const oddText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_BREAKERS) },
  fc.constantFrom(...ODD_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...ODD_TEXT).map((text) => text.repeat(3000)),
  fc.nat({ max: 120_000 }).map((length) => 'x'.repeat(length)),
);

/** Any JSON value, of any type and shape, including the odd text above. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue({ maxDepth: 3 }),
  oddText,
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((value) => Number(value)),
  fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, [], {}),
);

/** `text` with one of the odd texts put somewhere inside it. */
function spliced(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.constantFrom(...KNOWN_BREAKERS, ...ODD_TEXT), fc.nat()).map(([base, odd, at]) => {
    const cut = at % (base.length + 1);
    return `${base.slice(0, cut)}${odd}${base.slice(cut)}`;
  });
}

/**
 * A value that fits `schema` often enough to get past the first rules, a fitting value with odd text inside, odd
 * text alone, or anything else.
 */
function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  const fitting: Array<fc.Arbitrary<unknown>> = [];
  const texts: Array<fc.Arbitrary<string>> = [];
  if (schema.enum && schema.enum.length > 0) {
    fitting.push(fc.constantFrom(...schema.enum));
    texts.push(fc.constantFrom(...schema.enum.map(String)));
  }
  if (isIsoDateTimeSchema(schema)) {
    const dates = fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constantFrom('2026-05-03', '2026-02-29', '2026-13-01', '03/05/2026', '2026-05-03T10:00'),
    );
    fitting.push(dates);
    texts.push(dates);
  }
  if (schema.type === 'number') fitting.push(fc.integer({ min: -5, max: 200 }), fc.double({ min: -1, max: 100_000 }));
  if (schema.type === 'boolean') fitting.push(fc.boolean());
  if (schema.type === 'string') {
    const words = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.emailAddress(), fc.constant('Fuzz-Pass-1!'));
    fitting.push(words);
    texts.push(words);
  }
  if (schema.type === 'array') {
    fitting.push(fc.array(schema.items ? valueFor(schema.items) : anyJson, { maxLength: 4 }));
  }
  if (schema.properties) fitting.push(bodyFor(schema.properties));
  const choices: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 2, arbitrary: oddText },
    { weight: 1, arbitrary: anyJson },
  ];
  if (fitting.length > 0) choices.push({ weight: 3, arbitrary: fc.oneof(...fitting) });
  if (texts.length > 0) choices.push({ weight: 3, arbitrary: spliced(fc.oneof(...texts)) });
  return fc.oneof(...choices);
}

/** An object with some documented properties (fitting or not) and now and then a key of its own. */
function bodyFor(properties: Record<string, Schema>): fc.Arbitrary<Record<string, unknown>> {
  const documented = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, valueFor(schema)])),
    { requiredKeys: [] },
  );
  const extra = fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...ODD_TEXT)), anyJson, {
    maxKeys: 2,
  });
  return fc
    .tuple(documented, fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }))
    .map(([known, unknown]) => ({ ...unknown, ...known }));
}

interface FuzzCase {
  /** A JSON value to send, raw text to send as JSON, or nothing. */
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'none' };
  query: Record<string, string> | undefined;
  /** Path parameters to replace; the others keep the caller's own ids. */
  path: Record<string, string>;
}

function caseFor(route: RouteInputs): fc.Arbitrary<FuzzCase> {
  const body = fc.oneof(
    { weight: 6, arbitrary: bodyFor(route.bodyProperties).map((value) => ({ kind: 'json' as const, value })) },
    { weight: 2, arbitrary: anyJson.map((value) => ({ kind: 'json' as const, value })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((text) => ({ kind: 'raw' as const, text })) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 6000 })
        .map((depth) => ({ kind: 'raw' as const, text: `${'['.repeat(depth)}${']'.repeat(depth)}` })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
  const queryNames = Object.keys(route.queryParameters);
  const query =
    queryNames.length === 0
      ? fc.constant(undefined)
      : fc.option(
          fc.record(
            Object.fromEntries(
              Object.entries(route.queryParameters).map(([name, schema]) => [
                name,
                valueFor(schema).map((value) =>
                  (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).slice(0, URL_TEXT_MAX),
                ),
              ]),
            ),
            { requiredKeys: [] },
          ),
          { nil: undefined },
        );
  const path = fc.record(
    Object.fromEntries(
      route.pathParameters.map((parameter) => [
        parameter,
        fc.oneof(
          oddText.map((text) => text.slice(0, URL_TEXT_MAX / 5)),
          fc.integer().map(String),
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  return fc.record({ body, query, path }) as fc.Arbitrary<FuzzCase>;
}

/**
 * Random JSON values, wrong types, huge strings and odd unicode in every field of every route's DTO, its query and
 * its path, sent as a client and as an admin: the answer is never a 5xx, and every refusal carries a catalogue code.
 * The routes come from the route matrix, so a new route is fuzzed as soon as the matrix lists it.
 */
describe('fuzzed input on every route', () => {
  let testApp: TestApp;
  let tokens: Record<'client' | 'admin', string>;
  /** The client acts on its own records; the admin on another user's, so that its changes leave the client alone. */
  let contexts: Record<'client' | 'admin', MatrixContext>;
  let routes: RouteInputs[];

  beforeAll(async () => {
    testApp = await startTestApp({ env: { ...UNREACHABLE_STRIPE_ENV } });
    const clientSide = await clientAndAdmin(testApp);
    const target = await createActiveUser(testApp);
    tokens = clientSide.tokens;
    contexts = { client: clientSide.context, admin: { ...clientSide.context, clientUuid: target.userUuid } };
    routes = routeInputs(testApp);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('fuzzes every route of the matrix', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it(
    'never answers 5xx, and answers every refusal with a catalogue code',
    async () => {
      const failures: string[] = [];
      for (const route of routes) {
        await fc
          .assert(
            fc.asyncProperty(caseFor(route), async (fuzz) => {
              for (const actor of ['client', 'admin'] as const) {
                const url = urlWith(route, contexts[actor], { path: fuzz.path, query: fuzz.query });
                const body =
                  fuzz.body.kind === 'json'
                    ? (JSON.stringify(fuzz.body.value) ?? 'null')
                    : fuzz.body.kind === 'raw'
                      ? fuzz.body.text
                      : undefined;
                const response = await call(testApp, route.row.method, url, tokens[actor], body);
                const unreachableProvider =
                  route.row.unavailableError !== undefined &&
                  response.status === 503 &&
                  response.body?.error === route.row.unavailableError;
                const sound =
                  unreachableProvider ||
                  (response.status < 500 && (response.status < 400 || isErrorCode(response.body?.error)));
                if (!sound) {
                  failures.push(
                    `${route.name} as ${actor}: ${url.slice(0, 300)} ${body?.slice(0, 300)} → ${response.status}`,
                  );
                  return false;
                }
              }
              return true;
            }),
            { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
          )
          .catch(() => undefined);
      }
      expect(failures).toEqual([]);
    },
    FUZZ_TIMEOUT_MS,
  );
});
