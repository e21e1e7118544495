import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import { type ActiveUser, createActiveUser } from '../../../test-support/identity-fixtures';
import { ManualClock } from '../../../platform/clock';
import { ClientFilterDto, ClientSelection } from '../index';

describe('selecting the clients the staff list filters match', () => {
  let testApp: TestApp;
  let selection: ClientSelection;
  const clock = new ManualClock(new Date('2026-05-01T09:00:00Z'));
  let dana: ActiveUser;
  let eli: ActiveUser;
  let ambassador: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    selection = testApp.app.get(ClientSelection);
    await createActiveUser(testApp, { role: 'MANAGER', email: 'mgr.select@example.com', lastName: 'Selectman' });
    clock.set(new Date('2026-05-02T09:00:00Z'));
    dana = await createActiveUser(testApp, { email: 'dana.select@example.com', lastName: 'Selectman' });
    clock.set(new Date('2026-05-03T09:00:00Z'));
    eli = await createActiveUser(testApp, { email: 'eli.select@example.com', lastName: 'Selectman' });
    clock.set(new Date('2026-05-04T09:00:00Z'));
    ambassador = await createActiveUser(testApp, {
      role: 'AMBASSADOR',
      email: 'amb.select@example.com',
      lastName: 'Selectman',
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('counts and lists customers only, oldest first, whatever the keyword also matches among staff', async () => {
    const all = await selection.select({ keyWord: 'selectman' });
    expect(all).toEqual({ total: 3, userUuids: [dana.userUuid, eli.userUuid, ambassador.userUuid] });
    const sample = await selection.select({ keyWord: 'selectman' }, 2);
    expect(sample).toEqual({ total: 3, userUuids: [dana.userUuid, eli.userUuid] });
  });

  it('narrows by role, status and registration date as the clients list does', async () => {
    expect((await selection.select({ keyWord: 'selectman', roles: ['AMBASSADOR'] })).userUuids).toEqual([
      ambassador.userUuid,
    ]);
    const window = await selection.select({
      keyWord: 'selectman',
      registrationDate: { from: '2026-05-03T00:00:00Z', to: '2026-05-03T23:59:59Z' },
    });
    expect(window.userUuids).toEqual([eli.userUuid]);
    expect(await selection.select({ keyWord: 'selectman', statuses: ['BLOCKED'] })).toEqual({
      total: 0,
      userUuids: [],
    });
  });

  it('refuses a staff role in the filter rather than selecting nobody', async () => {
    const refused = await validate(plainToInstance(ClientFilterDto, { roles: ['MANAGER'] }), {
      whitelist: true,
      forbidNonWhitelisted: true,
    });
    expect(refused.map((error) => error.property)).toEqual(['roles']);
    const accepted = await validate(
      plainToInstance(ClientFilterDto, { keyWord: 'x', statuses: ['ACTIVE'], roles: ['CLIENT'] }),
      { whitelist: true, forbidNonWhitelisted: true },
    );
    expect(accepted).toEqual([]);
    const paging = await validate(plainToInstance(ClientFilterDto, { page: 1 }), {
      whitelist: true,
      forbidNonWhitelisted: true,
    });
    expect(paging.map((error) => error.property)).toEqual(['page']);
  });
});
