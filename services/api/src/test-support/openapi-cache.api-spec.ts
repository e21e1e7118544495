import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../create-app';
import { cachedOpenApiDocument, routeSetKey, RUN_DIRECTORY_VARIABLE } from './openapi-cache';
import { startTestApp, TEST_APP_VERSION, type TestApp } from './test-app';

/**
 * The spec apps serve an OpenAPI document kept for the whole Jest run (`openapi-cache.ts`): it must be the one the
 * app's routes build now, or the contract checks of every API spec would check against a stale document.
 */
describe('the OpenAPI document the spec apps share', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is what the routes build afresh', async () => {
    const served = (await testApp.rawHttp.get('/api/docs/openapi.json').expect(200)).body as unknown;
    const fresh = JSON.parse(JSON.stringify(buildOpenApiDocument(testApp.app, TEST_APP_VERSION))) as unknown;
    expect(served).toEqual(fresh);
  });

  it('is kept in the run directory and read from there, not built again', () => {
    const directory = process.env[RUN_DIRECTORY_VARIABLE];
    expect(directory).toBeTruthy();
    const key = routeSetKey(testApp.app, TEST_APP_VERSION);
    expect(existsSync(join(directory!, 'openapi', `${key}.json`))).toBe(true);
    const read = cachedOpenApiDocument(TEST_APP_VERSION)(() => {
      throw new Error('built again');
    }, testApp.app);
    expect(Object.keys(read.paths).length).toBeGreaterThan(100);
  });

  it('is keyed by the version too', () => {
    expect(routeSetKey(testApp.app, '9.9.9')).not.toBe(routeSetKey(testApp.app, TEST_APP_VERSION));
  });
});
