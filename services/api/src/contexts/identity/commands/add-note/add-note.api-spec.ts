import { LIMITS, type Note } from '@kupa/proto';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';

describe('notes about a user', () => {
  let testApp: TestApp;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    manager = await createActiveUser(testApp, { role: 'MANAGER', firstName: 'Maya', lastName: 'Manager' });
    client = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const as = (token: string) => ({
    list: (userUuid: string) =>
      testApp.http.get(`/api/users/${userUuid}/notes`).set('Authorization', `Bearer ${token}`),
    add: (userUuid: string, text: unknown) =>
      testApp.http.post(`/api/users/${userUuid}/notes`).set('Authorization', `Bearer ${token}`).send({ text }),
    remove: (noteId: string, userUuid = client.userUuid) =>
      testApp.http.delete(`/api/users/${userUuid}/notes/${noteId}`).set('Authorization', `Bearer ${token}`),
  });

  it('adds, lists newest first and deletes notes', async () => {
    const staff = as(manager.accessToken);
    const first = await staff.add(client.userUuid, 'Asked about the yearly plan');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      userUuid: client.userUuid,
      text: 'Asked about the yearly plan',
      createdBy: { id: manager.userUuid, name: 'Maya Manager' },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await staff.add(client.userUuid, 'לקוח ותיק, לטפל בעדיפות');
    const listed = await staff.list(client.userUuid);
    expect((listed.body as Note[]).map((note) => note.text)).toEqual([
      'לקוח ותיק, לטפל בעדיפות',
      'Asked about the yearly plan',
    ]);

    expect((await staff.remove(second.body.id)).status).toBe(204);
    expect(((await staff.list(client.userUuid)).body as Note[]).map((note) => note.id)).toEqual([first.body.id]);
    const again = await staff.remove(second.body.id);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('error.entity.not.found');
  });

  it('refuses empty and too long notes, unknown users and malformed ids', async () => {
    const staff = as(manager.accessToken);
    expect((await staff.add(client.userUuid, '   ')).body.details.fields).toContainEqual({
      field: 'text',
      error: 'error.validation.blank',
    });
    const tooLong = await staff.add(client.userUuid, 'x'.repeat(LIMITS.noteMaxLength + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.fields).toContainEqual({
      field: 'text',
      error: 'error.validation.max.length',
      params: { max: LIMITS.noteMaxLength },
    });
    expect((await staff.add('00000000-0000-4000-8000-000000000000', 'hello')).status).toBe(404);
    expect((await staff.list('00000000-0000-4000-8000-000000000000')).body.error).toBe('error.user.not.found');
    expect((await staff.remove('nope')).status).toBe(404);
  });

  it('holds notes to the product’s text limit: under 256 characters, Hebrew included', async () => {
    const staff = as(manager.accessToken);
    const longest = await staff.add(client.userUuid, 'ה'.repeat(255));
    expect(longest.status).toBe(201);
    expect(longest.body.text).toHaveLength(255);
    const over = await staff.add(client.userUuid, 'ה'.repeat(256));
    expect(over.status).toBe(400);
    expect(over.body.details.fields).toEqual([
      { field: 'text', error: 'error.validation.max.length', params: { max: 255 } },
    ]);
  });

  it("deletes a note only under its own user's path: another user's path answers 404 and keeps it", async () => {
    const staff = as(manager.accessToken);
    const note = await staff.add(client.userUuid, 'Belongs to the client');
    const elsewhere = await staff.remove(note.body.id, manager.userUuid);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toBe('error.entity.not.found');
    expect(((await staff.list(client.userUuid)).body as Note[]).map((kept) => kept.id)).toContain(note.body.id);
    const unknownUser = await staff.remove(note.body.id, '00000000-0000-4000-8000-000000000000');
    expect(unknownUser.body.error).toBe('error.user.not.found');
    expect((await staff.remove(note.body.id)).status).toBe(204);
  });

  it('keeps notes away from clients', async () => {
    const customer = as(client.accessToken);
    expect((await customer.list(client.userUuid)).status).toBe(403);
    expect((await customer.add(client.userUuid, 'hi')).status).toBe(403);
  });
});
