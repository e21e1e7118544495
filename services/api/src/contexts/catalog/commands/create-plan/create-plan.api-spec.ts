import type { Plan } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { auditEntriesOf, expectReadModelsToEqualReplay, planRequest } from '../../catalog.fixtures';

describe('POST /payment-plans', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [manager, client] = await Promise.all([createActiveUser(testApp, { role: 'MANAGER' }), createActiveUser(testApp)]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const create = (body: unknown, token: string | null = admin) => {
    const call = testApp.http.post('/api/payment-plans');
    return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body as object);
  };
  const fieldsOf = (response: { body: { details?: { fields?: unknown } } }) => response.body.details?.fields;

  it('creates a package with its terms, trimmed, and answers it', async () => {
    const request = planRequest({ name: '  Gold Family  ', features: [' HD ', '4 screens'], price: 99999.99 });
    const response = await create(request);
    expect(response.status).toBe(201);
    const plan = response.body as Plan;
    expect(plan).toEqual({
      ...request,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Gold Family',
      features: ['HD', '4 screens'],
      // Absent in the request: a package may be bought by card unless staff say otherwise.
      cardPaymentAllowed: true,
      // Absent in the request: the package has no English texts, and English readers see the Hebrew ones.
      nameEn: '',
      descriptionEn: '',
      createdAt: expect.any(String),
      updatedAt: plan.createdAt,
    });
    const read = await testApp.http.get(`/api/payment-plans/${plan.id}`).set('Authorization', `Bearer ${admin}`);
    expect(read.body).toEqual({ ...plan, subscriptionCount: 0 });
  });

  it('creates a package with English texts beside the Hebrew ones, trimmed, and lists it with both', async () => {
    const request = planRequest({
      name: 'חבילת משפחה',
      description: 'כל הערוצים',
      nameEn: '  Family Bundle ',
      descriptionEn: ' Every channel ',
    });
    const response = await create(request);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'חבילת משפחה',
      nameEn: 'Family Bundle',
      descriptionEn: 'Every channel',
    });
    const list = await testApp.http
      .post('/api/payment-plans/search')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ size: 100 });
    expect(list.status).toBe(200);
    const listed = (list.body.content as Plan[]).find((plan) => plan.id === response.body.id);
    expect(listed).toMatchObject({ name: 'חבילת משפחה', description: 'כל הערוצים', nameEn: 'Family Bundle' });
    const tooLong = await create(
      planRequest({ name: 'Long English', nameEn: 'x'.repeat(101), descriptionEn: 'y'.repeat(256) }),
    );
    expect(tooLong.status).toBe(400);
    expect(fieldsOf(tooLong)).toEqual([
      { field: 'nameEn', error: 'error.validation.max.length', params: { max: 100 } },
      { field: 'descriptionEn', error: 'error.validation.max.length', params: { max: 255 } },
    ]);
  });

  it('records the creation in the activity log as a PACKAGE with its values, price in dollars', async () => {
    const response = await create(planRequest({ name: 'Audited Silver', price: 12.5, status: 'INACTIVE' }));
    const [entry, ...others] = await auditEntriesOf(testApp, response.body.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      operationType: 'CREATED',
      target: { type: 'PACKAGE', id: response.body.id, name: 'Audited Silver', email: null },
      parent: null,
      eventType: 'PaymentPlanCreated',
    });
    expect(entry.createdBy.name).toBe('Fixture Admin');
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', oldValue: null, newValue: 'Audited Silver' },
        { field: 'price', oldValue: null, newValue: 12.5 },
        { field: 'status', oldValue: null, newValue: 'INACTIVE' },
        { field: 'features', oldValue: null, newValue: ['HD', 'Two screens'] },
      ]),
    );
  });

  it('refuses a name another package has, whatever its case and spaces', async () => {
    await create(planRequest({ name: 'Platinum Unique' })).expect(201);
    const again = await create(planRequest({ name: ' platinum UNIQUE ' }));
    expect([again.status, again.body.error, again.body.details]).toEqual([
      409,
      'error.payment.plan.already.exists',
      { field: 'name' },
    ]);
  });

  it('creates one of two packages given one name at the same moment, and refuses the other', async () => {
    const name = 'Simultaneous Bronze';
    const answers = await Promise.all([create(planRequest({ name })), create(planRequest({ name }))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.error).toBe('error.payment.plan.already.exists');
    const rows = await testApp.dataSource.query('SELECT id FROM payment_plans WHERE name = $1', [name]);
    expect(rows).toHaveLength(1);
  });

  it('refuses terms outside the limits, field by field, with catalogue codes', async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ price: 100000 }, [{ field: 'price', error: 'error.validation.max', params: { max: 99999.99 } }]],
      [{ price: 0 }, [{ field: 'price', error: 'error.validation.must.be.positive' }]],
      [
        { price: 1.005 },
        [{ field: 'price', error: 'error.validation.max.decimal.places', params: { maxDecimalPlaces: 2 } }],
      ],
      [{ price: '10' }, [{ field: 'price', error: 'error.validation.invalid.input' }]],
      [{ durationInMonths: 6 }, [{ field: 'durationInMonths', error: 'error.validation.invalid.field' }]],
      [{ currency: 'EUR' }, [{ field: 'currency', error: 'error.validation.invalid.currency' }]],
      [{ status: 'DRAFT' }, [{ field: 'status', error: 'error.validation.invalid.field' }]],
      [{ name: '   ' }, [{ field: 'name', error: 'error.validation.blank' }]],
      [{ name: 'x'.repeat(101) }, [{ field: 'name', error: 'error.validation.max.length', params: { max: 100 } }]],
      [
        { description: 'x'.repeat(256) },
        [{ field: 'description', error: 'error.validation.max.length', params: { max: 255 } }],
      ],
      [{ features: ['HD', ' '] }, [{ field: 'features', error: 'error.validation.blank' }]],
      [
        { features: Array.from({ length: 21 }, (_, index) => `Feature ${index}`) },
        [{ field: 'features', error: 'error.validation.max.items', params: { maxItems: 20 } }],
      ],
      [{ isRecurrent: 'yes' }, [{ field: 'isRecurrent', error: 'error.validation.invalid.input' }]],
      [{ id: '7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e' }, [{ field: 'id', error: 'error.validation.unknown.field' }]],
    ];
    for (const [change, fields] of cases) {
      const response = await create({ ...planRequest(), ...change });
      expect([JSON.stringify(change).slice(0, 60), response.status, fieldsOf(response)]).toEqual([
        JSON.stringify(change).slice(0, 60),
        400,
        fields,
      ]);
    }
    const missing = await create({ name: 'Only a name' });
    expect((fieldsOf(missing) as Array<{ field: string }>).map((field) => field.field).sort()).toEqual([
      'currency',
      'description',
      'durationInMonths',
      'features',
      'isRecurrent',
      'price',
      'status',
    ]);
  });

  it('is for admins only', async () => {
    const before = await testApp.dataSource.query('SELECT count(*) FROM payment_plans');
    expect((await create(planRequest(), null)).status).toBe(401);
    expect((await create(planRequest(), manager.accessToken)).status).toBe(403);
    expect((await create(planRequest(), client.accessToken)).status).toBe(403);
    expect(await testApp.dataSource.query('SELECT count(*) FROM payment_plans')).toEqual(before);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
