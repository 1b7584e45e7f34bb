import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from './support/raw-data';
import { startTestApp, type TestApp } from './support/test-app';

/*
 * What a catalogue says is text, never markup: plan names that a provider's catalogue (or whoever
 * tampered with it) wrote as a markdown link or a spreadsheet formula, served by the real app.
 */

const LINK = '[Claim 90% off](https://evil.example)';
const FORMULA = '=HYPERLINK("https://evil.example","Claim")';

describe('plan names from a catalogue', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalogue-text-'));
    await cp(DATA_DIR, dir, { recursive: true });
    const file = join(dir, 'providers.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    const plans = data.providers.find((p: { id: string }) => p.id === 'vultr').plans;
    // The two dearest Regular Performance sizes: no add-on price, guide or use case names them.
    const [linkPlan, formulaPlan] = plans.filter((p: { line: string }) => p.line === 'regular').slice(-2);
    linkPlan.name = LINK;
    formulaPlan.name = FORMULA;
    await writeFile(file, JSON.stringify(data, null, 2));
    t = await startTestApp({ DATA_DIR: dir, RATE_LIMIT_REQUESTS: '1000000' });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['/providers/vultr', '/plans'])(
    '%s shows a name written as a link as text, with no link to it',
    async (path) => {
      const page = await t.http.get(path).expect(200);
      expect(page.text).not.toContain('href="https://evil.example"');
      expect(page.text).toContain('[Claim 90% off](https://evil.example)');
      const markdown = await t.http.get(path).set('Accept', 'text/markdown').expect(200);
      expect(markdown.text).toContain('\\[Claim 90% off\\](https\\://evil.example)');
    },
  );

  it('writes a name that starts a formula into /api/plans.csv with a leading quote', async () => {
    const csv = await t.http.get('/api/plans.csv').expect(200);
    const names = (parse(csv.text, { columns: true }) as { planName: string }[]).map((r) => r.planName);
    expect(names).toContain(`'${FORMULA}`);
    expect(names).not.toContain(FORMULA);
    // The JSON keeps the name as the catalogue wrote it.
    const json = await t.http.get('/api/plans.json').expect(200);
    expect(JSON.stringify(json.body)).toContain(JSON.stringify(FORMULA).slice(1, -1));
  });
});
