import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InvalidDatasetError, loadDataset } from './dataset-loader';

describe('loadDataset', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpsapi-data-'));
    await cp(resolve('data'), dir, { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const problemsOf = async () => {
    try {
      await loadDataset(dir);
    } catch (error) {
      if (error instanceof InvalidDatasetError) return error.problems;
      throw error;
    }
    return [];
  };

  it('loads a valid copy with its guides newest first', async () => {
    const snapshot = await loadDataset(dir);
    expect(snapshot.version).toBe(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')).version);
    const dates = snapshot.guides.map((g) => g.published);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('names a missing file', async () => {
    await rm(join(dir, 'use-cases.json'));
    expect(await problemsOf()).toContain(`${join(dir, 'use-cases.json')}: is missing`);
  });

  it('loads a dataset without a guides directory, with no guides', async () => {
    await rm(join(dir, 'guides'), { recursive: true });
    const snapshot = await loadDataset(dir);
    expect(snapshot.guides).toEqual([]);
    expect(snapshot.providers).toHaveLength(8);
  });

  it('names a file that is not JSON', async () => {
    await writeFile(join(dir, 'providers.json'), '{"providers": [');
    const problems = await problemsOf();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${join(dir, 'providers.json')}: is not valid JSON: `));
  });

  it('names a guide without front matter', async () => {
    await writeFile(join(dir, 'guides', 'install-docker.md'), 'Just text.\n');
    expect(await problemsOf()).toEqual([
      `${join(dir, 'guides', 'install-docker.md')}: must start with a front matter block between two --- lines`,
    ]);
  });

  it('names a guide whose front matter is not YAML', async () => {
    await writeFile(join(dir, 'guides', 'install-docker.md'), '---\nslug: [unclosed\n---\nBody.\n');
    const problems = await problemsOf();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/install-docker\.md: front matter is not valid YAML: /);
  });

  it('refuses a guide with an empty body', async () => {
    await writeFile(
      join(dir, 'guides', 'zz-empty.md'),
      '---\nslug: zz-empty\ntitle: T\ndescription: D\ntype: tutorial\nkeywords: [a]\npublished: "2025-01-01"\nauthor: editorial-team\nsystems: [debian-13]\n---\n\n',
    );
    expect(await problemsOf()).toEqual([`${join(dir, 'guides', 'zz-empty.md')}: body: must not be empty`]);
  });
});
