import { EVENT_TYPE_LABELS, EVENT_TYPES } from '@kupa/proto';
import { EventTypeRegistry } from './platform/event-store';
import { startTestApp, type TestApp } from './test-support/test-app';

/**
 * Proto's event catalogue is what the screens name and tell in sentences (proto/src/event-text.ts, whose own test
 * fails on a missing Hebrew or English text). This spec ties it to what the running API really stores: an event type
 * a context registers without listing it in proto, or one proto lists that nothing registers, fails here.
 */
describe('the event catalogue', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it("is exactly the set of event types the API's contexts register", () => {
    const registered = testApp.app.get(EventTypeRegistry).registeredTypes();
    expect([...registered].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of registered) expect(Object.keys(EVENT_TYPE_LABELS)).toContain(type);
  });
});
