import { startTestApp, type TestApp } from './support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the index', async () => {
    const res = await t.http.get('/api/index.json').expect(200);
    expect(res.body.name).toBe('vpsapi');
  });
});
