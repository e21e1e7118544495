import { isErrorCode, PATTERNS } from '@kupa/proto';
import { type ActorName, type MatrixContext } from '../../test-support/route-matrix';
import {
  admittedActors,
  call,
  clientAndAdmin,
  isIsoDateTimeSchema,
  pathValue,
  type RouteInputs,
  routeInputs,
  type Schema,
  urlWith,
} from '../../test-support/route-inputs';
import { UNREACHABLE_STRIPE_ENV } from '../../test-support/fake-stripe';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { JSON_DEPTH_MAX } from './input-guards';

/**
 * Hostile input sent to every route of the route matrix, with what each route accepts read from the OpenAPI
 * document (docs/adr/0014-hostile-input.md). Every answer is a 4xx with a catalogue code; none is a 500.
 */
describe('hostile input on every route', () => {
  let testApp: TestApp;
  let tokens: Record<'client' | 'admin', string>;
  let context: MatrixContext;
  let routes: RouteInputs[];

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        ...UNREACHABLE_STRIPE_ENV,
        // Each caller sends hundreds of hostile bodies to the change of e-mail, whose mail allowance counts per
        // account, not per the address `call` varies; its limit has its own spec.
        RATE_LIMIT_MAIL_REQUESTS_PER_ADDRESS: '100000/1h',
      },
    });
    ({ tokens, context } = await clientAndAdmin(testApp));
    routes = routeInputs(testApp);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const tokenOf = (actor: ActorName): string | null => (actor === 'client' || actor === 'admin' ? tokens[actor] : null);

  /** The client and the admin where the guards let them in; a route that admits neither is called anonymously. */
  const callers = (route: RouteInputs): ActorName[] => {
    const admitted = admittedActors(route.row, ['client', 'admin']);
    return admitted.length > 0 ? admitted : [admittedActors(route.row)[0] ?? 'anonymous'];
  };

  const send = (route: RouteInputs, actor: ActorName, body?: unknown, url?: string) =>
    call(testApp, route.row.method, url ?? route.row.url(context), tokenOf(actor), body);

  /** The answer as one comparable line: status, code and the fields it names. */
  const answer = (response: { status: number; body: { error?: string; details?: { fields?: unknown } } }) =>
    JSON.stringify({ status: response.status, error: response.body?.error, fields: response.body?.details?.fields });
  const refused = (fields: Array<{ field: string; error: string; params?: Record<string, string> }>) =>
    JSON.stringify({ status: 400, error: 'error.validation.failed', fields });

  /** Runs `probe` on every route and compares all answers at once, so that one failure names every bad route. */
  async function everyRoute(
    probe: (route: RouteInputs) => Promise<Array<[label: string, actual: string, expected: string]>>,
  ): Promise<void> {
    const actual: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const route of routes) {
      for (const [label, got, wanted] of await probe(route)) {
        actual[`${route.name} ${label}`] = got;
        expected[`${route.name} ${label}`] = wanted;
      }
    }
    expect(actual).toEqual(expected);
  }

  it('derives its inputs from every route and finds the fields these specs probe', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const named = (predicate: (route: RouteInputs) => boolean) => routes.filter(predicate).map((route) => route.name);
    expect(named((route) => 'sorts' in route.bodyProperties)).toEqual(
      expect.arrayContaining([
        'POST /api/users/search',
        'POST /api/payments/search',
        'POST /api/audit-logs/search',
        'POST /api/payment-plans/search',
      ]),
    );
    expect(named((route) => dateFields(route).length > 0)).toEqual(
      expect.arrayContaining([
        'POST /api/users/search',
        'POST /api/payments/export',
        'POST /api/audit-logs/search',
        'GET /api/ledger/accounts/{account}/history',
      ]),
    );
  });

  describe('JSON nested thousands of levels deep', () => {
    const depth = 5000;
    const bodies = {
      arrays: `${'['.repeat(depth)}${']'.repeat(depth)}`,
      objects: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    };

    it('is refused with 400 error.bad.request before anything else, for every caller', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of ['anonymous', 'client', 'admin'] as const) {
          for (const [shape, body] of Object.entries(bodies)) {
            const response = await send(route, actor, body);
            answers.push([`${actor} ${shape}`, `${response.status} ${response.body?.error}`, '400 error.bad.request']);
          }
        }
        return answers;
      });
    });

    it(`still reads bodies nested ${JSON_DEPTH_MAX} levels deep (their DTO refuses them field by field)`, async () => {
      const route = routes.find((candidate) => candidate.name === 'POST /api/users/search')!;
      const nested = `${'{"a":'.repeat(JSON_DEPTH_MAX - 1)}{}${'}'.repeat(JSON_DEPTH_MAX - 1)}`;
      const response = await send(route, 'admin', nested);
      expect(answer(response)).toBe(refused([{ field: 'a', error: 'error.validation.unknown.field' }]));
      const tooDeep = `[${nested}]`;
      expect((await send(route, 'admin', tooDeep)).body.error).toBe('error.bad.request');
    });
  });

  describe('text PostgreSQL cannot store', () => {
    const unstorable = { nul: 'a\u0000b', loneSurrogate: 'a\ud800b' };

    it('is refused in every documented body field, nested ones too, with error.validation.invalid.input', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const [kind, text] of Object.entries(unstorable)) {
            const properties = Object.entries(route.bodyProperties);
            if (properties.length === 0) {
              // A route without a body refuses any field as unknown, whatever its text.
              const response = await send(route, actor, { note: text });
              answers.push([
                `${actor} ${kind}`,
                answer(response),
                refused([{ field: 'note', error: 'error.validation.unknown.field' }]),
              ]);
              continue;
            }
            for (const [property, schema] of properties) {
              const { value, path } = placeText(schema, text);
              const response = await send(route, actor, { ...bodyOf(route), [property]: value });
              answers.push([
                `${actor} ${kind} ${property}${path}`,
                answer(response),
                refused([{ field: `${property}${path}`, error: 'error.validation.invalid.input' }]),
              ]);
            }
            const key = await send(route, actor, { [`key${text}`]: 1 });
            answers.push([
              `${actor} ${kind} in a key`,
              answer(key),
              refused([{ field: `key${text}`, error: 'error.validation.invalid.input' }]),
            ]);
          }
        }
        return answers;
      });
    });

    it('is refused in every documented query parameter', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const parameter of Object.keys(route.queryParameters)) {
            const response = await send(
              route,
              actor,
              undefined,
              urlWith(route, context, { query: { [parameter]: 'a\u0000' } }),
            );
            answers.push([
              `${actor} ?${parameter}`,
              answer(response),
              refused([{ field: parameter, error: 'error.validation.invalid.input' }]),
            ]);
          }
        }
        return answers;
      });
    });
  });

  describe('null in an optional field', () => {
    /** Optional fields at the top of a body and one level down (`price.from`), with whether the document allows null. */
    const optionalFields = (route: RouteInputs) =>
      Object.entries(route.bodyOpen ? {} : route.bodyProperties).flatMap(([property, schema]) => {
        const top = route.bodyRequired.includes(property) ? [] : [{ path: [property], schema }];
        const nested = Object.entries(schema.properties ?? {})
          .filter(([inner]) => !(schema.required ?? []).includes(inner))
          .map(([inner, innerSchema]) => ({ path: [property, inner], schema: innerSchema }));
        return [...top, ...nested];
      });

    it('is refused with error.validation.not.nullable unless the document calls the field nullable', async () => {
      const probed: string[] = [];
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const { path, schema } of optionalFields(route)) {
            const field = path.join('.');
            const value = path.length === 1 ? null : { [path[1]]: null };
            const response = await send(route, actor, { ...bodyOf(route), [path[0]]: value });
            const named = ((response.body?.details?.fields ?? []) as Array<{ field: string; error: string }>).filter(
              (problem) => problem.field === field,
            );
            probed.push(`${route.name} ${field}`);
            answers.push([
              `${actor} ${field}: null`,
              JSON.stringify({ status: response.status, named }),
              JSON.stringify(
                schema.nullable === true
                  ? { status: response.status, named: [] }
                  : { status: 400, named: [{ field, error: 'error.validation.not.nullable' }] },
              ),
            ]);
          }
        }
        return answers;
      });
      expect(probed).toEqual(
        expect.arrayContaining([
          'PUT /api/payment-plans/{id} cardPaymentAllowed',
          'POST /api/auth/signin otp',
          'POST /api/payment-plans/search price.from',
          'POST /api/payments/search id',
        ]),
      );
    });
  });

  describe('names of members every object inherits', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

    it('are unknown fields of every body, at the top and nested', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const name of names) {
            // Raw JSON: an object literal would set the prototype instead of a `__proto__` key.
            const top = await send(route, actor, `{${JSON.stringify(name)}:{"x":1}}`);
            answers.push([
              `${actor} ${name}`,
              answer(top),
              refused([{ field: name, error: 'error.validation.unknown.field' }]),
            ]);
            for (const [property, schema] of Object.entries(route.bodyProperties)) {
              const inner = schema.type === 'array' ? schema.items : schema;
              if (!inner?.properties) continue;
              const member = `{${JSON.stringify(name)}:1}`;
              const raw = `{${JSON.stringify(property)}:${schema.type === 'array' ? `[${member}]` : member}}`;
              const path = schema.type === 'array' ? `${property}.0.${name}` : `${property}.${name}`;
              answers.push([
                `${actor} ${path}`,
                answer(await send(route, actor, raw)),
                refused([{ field: path, error: 'error.validation.unknown.field' }]),
              ]);
            }
          }
        }
        return answers;
      });
    });

    it('are unknown sort ids of every search and export', async () => {
      await everyRoute(async (route) => {
        if (!('sorts' in route.bodyProperties)) return [];
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const id of names) {
            const response = await send(route, actor, { sorts: [{ id, desc: true }] });
            answers.push([
              `${actor} ${id}`,
              answer(response),
              refused([{ field: 'sorts', error: 'error.validation.invalid.field', params: { id } }]),
            ]);
          }
        }
        return answers;
      });
    });

    it('are unknown query parameters of every route that reads its query', async () => {
      await everyRoute(async (route) => {
        if (Object.keys(route.queryParameters).length === 0) return [];
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const name of names) {
            const response = await send(route, actor, undefined, urlWith(route, context, { query: { [name]: '1' } }));
            answers.push([
              `${actor} ?${name}`,
              answer(response),
              refused([{ field: name, error: 'error.validation.unknown.field' }]),
            ]);
          }
        }
        return answers;
      });
    });
  });

  describe('ids in paths', () => {
    const digits = (value: string) => value.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    const numericVariants = (id: string) => [
      `0x${Number(id).toString(16)}`,
      `${id}e0`,
      '1e1',
      `+${id}`,
      ` ${id}`,
      `${id} `,
      `${id}.0`,
      `-${id}`,
      `0${id}`,
      '0',
      digits(id),
      `${id}\u0000`,
      '99999999999999999999',
    ];
    const uuidVariants = (id: string) => [
      id.toUpperCase(),
      `{${id}}`,
      id.replace(/-/g, ''),
      ` ${id}`,
      `${id} `,
      `urn:uuid:${id}`,
      `${id}\u0000`,
      `${id.slice(0, -1)}g`,
    ];
    const accountVariants = (account: string) => [
      account.toUpperCase(),
      ` ${account}`,
      `${account} `,
      `${account}\u0000`,
      'constructor',
      'user:0x10',
    ];

    // A promo code is named in any case by design (docs/adr/0088-promo-codes.md); what is not a code's form is refused,
    // and a name of a code's form that no code has names nothing.
    const promoCodeVariants = (code: string) => [` ${code}`, `${code} `, `${code}\u0000`, 'user:0x10', 'constructor'];
    const promoCodeRefusal = (variant: string) => (variant === 'constructor' ? 404 : 400);

    it('are accepted only in their canonical form: any other spelling names nothing (404; 400 for an account)', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const parameter of route.pathParameters) {
          const own = pathValue(route, context, parameter);
          const kind =
            parameter === 'code'
              ? 'promoCode'
              : /^\d+$/.test(own)
                ? 'numeric'
                : /^[0-9a-f-]{36}$/.test(own)
                  ? 'uuid'
                  : 'account';
          // A streaming login is any value of its rule: another valid login names another account, not a respelling.
          const spellings = {
            numeric: numericVariants,
            uuid: uuidVariants,
            account: accountVariants,
            promoCode: promoCodeVariants,
          }[kind](own);
          const variants = spellings.filter(
            (variant) => parameter !== 'login' || !PATTERNS.subscriptionLogin.test(variant),
          );
          for (const actor of callers(route)) {
            for (const variant of variants) {
              const url = urlWith(route, context, { path: { [parameter]: variant } });
              const response = await send(route, actor, route.row.body, url);
              answers.push([
                `${actor} ${parameter}=${JSON.stringify(variant)}`,
                `${response.status} ${isErrorCode(response.body?.error)}`,
                `${kind === 'promoCode' ? promoCodeRefusal(variant) : kind === 'account' ? 400 : 404} true`,
              ]);
            }
          }
        }
        return answers;
      });
    });
  });

  describe('ids in bodies', () => {
    it('are accepted only as canonical UUIDs, so that no money is booked to a second spelling of a user', async () => {
      const uuidFields = routes.flatMap((route) =>
        Object.entries(route.bodyProperties)
          .filter(([, schema]) => schema.format === 'uuid')
          .map(([property]) => ({ route, property })),
      );
      expect(uuidFields.map(({ route, property }) => `${route.name} ${property}`)).toContain(
        'POST /api/payments userUuid',
      );
      // Valid values of the routes' other required fields, so that only the id is refused.
      const deposit = {
        amount: 1,
        action: 'DEPOSIT',
        comment: 'second spelling',
        method: 'CRYPTO_BTC',
        label: 'second spelling',
        count: 1,
        // A manual deposit that settles a claim (claimId) still names its client.
        userUuid: context.clientUuid,
      };
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const { property } of uuidFields.filter((field) => field.route === route)) {
          for (const actor of callers(route)) {
            for (const variant of [
              context.clientUuid.toUpperCase(),
              `{${context.clientUuid}}`,
              context.clientUuid.replace(/-/g, ''),
              ` ${context.clientUuid}`,
            ]) {
              // The other fields go only to the routes that take them (renewing with the balance takes none).
              const known = Object.entries(deposit).filter(([field]) => field in route.bodyProperties);
              const response = await send(route, actor, { ...Object.fromEntries(known), [property]: variant });
              answers.push([
                `${actor} ${property}=${JSON.stringify(variant)}`,
                answer(response),
                refused([{ field: property, error: 'error.validation.invalid.format' }]),
              ]);
            }
          }
        }
        return answers;
      });
      const payments = await call(testApp, 'post', `/api/payments/search/${context.clientUuid}`, tokens.admin, {});
      expect(payments.body.totalElements).toBe(1);
    });
  });

  describe('dates', () => {
    const impossible = [
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '02/03/2026',
      '2026-2-3',
      '20260203',
      '2026-W05-3',
      'tomorrow',
      '1767225600000',
      '2026-05-03T10:00:00',
      '2026-05-03T25:00Z',
      '',
    ];

    it('are refused in every date field unless they name a real day or instant in the ISO extended form', async () => {
      await everyRoute(async (route) => {
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const field of dateFields(route)) {
            for (const value of [...impossible, 1767225600000, true]) {
              if (field.in === 'query' && typeof value !== 'string') continue;
              const response = await sendDate(route, actor, field, value);
              const code =
                typeof value === 'string' ? 'error.validation.invalid.format' : 'error.validation.invalid.input';
              answers.push([
                `${actor} ${field.path}=${JSON.stringify(value)}`,
                answer(response),
                refused([{ field: field.path, error: code }]),
              ]);
            }
            for (const value of ['2026-05-03', '2024-02-29', '2026-05-03T10:00:00.000Z', '2026-05-03T10:00:00+03:00']) {
              const response = await sendDate(route, actor, field, value);
              // A real date always passes the format; beside the row's other fields it may still break a rule of
              // the route's own (a statement's period reversed or too long), which is a refusal of another kind.
              const fields = (response.body?.details?.fields ?? []) as Array<{ field: string; error: string }>;
              const formatRefused = fields.some(
                (named) => named.field === field.path && named.error === 'error.validation.invalid.format',
              );
              const accepted = response.status === 200 || (response.status === 400 && !formatRefused);
              answers.push([`${actor} ${field.path}=${value}`, accepted ? 'accepted' : answer(response), 'accepted']);
            }
          }
        }
        return answers;
      });
    });

    function sendDate(route: RouteInputs, actor: ActorName, field: DateField, value: unknown) {
      if (field.in === 'query') {
        // The row's other query fields stay as they are: a statement needs both ends of its period.
        const own = Object.fromEntries(new URLSearchParams(route.row.url(context).split('?')[1] ?? ''));
        const query = { ...own, [field.path]: String(value) };
        return send(route, actor, undefined, urlWith(route, context, { query }));
      }
      const [property, bound] = field.path.split('.');
      return send(route, actor, { ...bodyOf(route), [property]: { [bound]: value } });
    }
  });

  describe('e-mail addresses with invisible or look-alike characters', () => {
    const hostile = [
      'dana\u200b@example.com',
      'dana@exa\u200cmple.com',
      'da\u200dna@example.com',
      'dana@example.com\u2060',
      '\ufeffdana@example.com',
      'dana\u202e@example.com',
      'dana@\u202aexample.com',
      'dana\u2066@example.com',
      'dana@example.com\u2069',
      'da\u00adna@example.com',
      'dana@p\u0430ypal.com',
      'dana\uff20example.com',
      'd\u00e1na@example.com',
      '\u212aate@example.com',
    ];

    it('are refused wherever an address is stored or looked up by the rule (sign-up, staff creation, mail calls)', async () => {
      const emailRoutes = routes.filter(
        (route) => 'email' in route.bodyProperties && route.row.path !== '/api/auth/signin',
      );
      expect(emailRoutes.map((route) => route.name)).toEqual(
        expect.arrayContaining(['POST /api/auth/signup', 'POST /api/users', 'POST /api/password/forgot']),
      );
      const mailsBefore = testApp.mailbox.messages.length;
      await everyRoute(async (route) => {
        if (!emailRoutes.includes(route)) return [];
        const answers: Array<[string, string, string]> = [];
        for (const actor of callers(route)) {
          for (const email of hostile) {
            const response = await send(route, actor, { ...validBodies[route.row.path], email });
            answers.push([
              `${actor} ${JSON.stringify(email)}`,
              answer(response),
              refused([{ field: 'email', error: 'error.validation.invalid.email' }]),
            ]);
          }
        }
        return answers;
      });
      expect(testApp.mailbox.messages.length).toBe(mailsBefore);
    });

    it('still takes a plain address, whatever its case and surrounding spaces', async () => {
      const response = await call(testApp, 'post', '/api/users', tokens.admin, {
        ...validBodies['/api/users'],
        email: '  Plain.Address@Example.COM ',
      });
      expect([response.status, response.body.email]).toEqual([201, 'plain.address@example.com']);
    });
  });

  /** Bodies that pass every rule but the one a test breaks, for the routes whose e-mail field is probed. */
  const validBodies: Record<string, Record<string, unknown>> = {
    '/api/auth/signup': {
      password: 'Hostile-Pass-1!',
      firstName: 'Dana',
      lastName: 'Levi',
      termsAccepted: true,
      language: 'en',
    },
    '/api/users': { password: 'Hostile-Pass-1!', firstName: 'Noa', lastName: 'Cohen', role: 'MANAGER' },
  };

  /** A route's own harmless body, to which a test adds the field it probes. */
  function bodyOf(route: RouteInputs): Record<string, unknown> {
    return typeof route.row.body === 'object' && route.row.body !== null && !Array.isArray(route.row.body)
      ? { ...(route.row.body as Record<string, unknown>) }
      : {};
  }
});

interface DateField {
  in: 'body' | 'query';
  /** `createdDate.from`, or the query parameter's name. */
  path: string;
}

/** The date fields of a route: bounds of date ranges in its body and date query parameters. */
function dateFields(route: RouteInputs): DateField[] {
  const fields: DateField[] = [];
  for (const [property, schema] of Object.entries(route.bodyProperties)) {
    for (const [bound, inner] of Object.entries(schema.properties ?? {})) {
      if (isIsoDateTimeSchema(inner)) fields.push({ in: 'body', path: `${property}.${bound}` });
    }
  }
  for (const [parameter, schema] of Object.entries(route.queryParameters)) {
    if (isIsoDateTimeSchema(schema)) fields.push({ in: 'query', path: parameter });
  }
  return fields;
}

/** A value of `schema`'s shape with `text` at its first string, and the path from the property to that string. */
function placeText(schema: Schema, text: string): { value: unknown; path: string } {
  if (schema.type === 'array') {
    const inner = placeText(schema.items ?? {}, text);
    return { value: [inner.value], path: `.0${inner.path}` };
  }
  const first = Object.entries(schema.properties ?? {})[0];
  if (first) {
    const inner = placeText(first[1], text);
    return { value: { [first[0]]: inner.value }, path: `.${first[0]}${inner.path}` };
  }
  return { value: text, path: '' };
}
