import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from './support/time';

const run = promisify(execFile);
const CLI = resolve('node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = resolve('.dependency-cruiser.cjs');

/** Runs dependency-cruiser with the project's rules over `dir`/src; resolves with its exit code and report. */
async function cruise(dir: string): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run('node', [CLI, 'src', '--config', CONFIG, '--output-type', 'err'], { cwd: dir });
    return { code: 0, report: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, report: stdout };
  }
}

describe('the layers of src/ (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  it(
    'hold in the code base: nothing imports from a layer above it, and there is no cycle',
    async () => {
      const { code, report } = await cruise(resolve('.'));
      expect(report).toContain('no dependency violations found');
      expect(code).toBe(0);
    },
    scaled(60_000),
  );

  it(
    'fail the check on an upward import from common/ into a feature',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'vpsapi-layers-'));
      try {
        await mkdir(join(dir, 'src', 'common'), { recursive: true });
        await mkdir(join(dir, 'src', 'pages'), { recursive: true });
        await writeFile(
          join(dir, 'tsconfig.json'),
          JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }),
        );
        await writeFile(join(dir, 'src', 'pages', 'page.ts'), 'export const page = 1;\n');
        await writeFile(
          join(dir, 'src', 'common', 'filter.ts'),
          "import { page } from '../pages/page.js';\nexport const filter = page;\n",
        );
        const { code, report } = await cruise(dir);
        expect(code).not.toBe(0);
        expect(report).toMatch(/common-below-features: src\/common\/filter\.ts → src\/pages\/page\.ts/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    scaled(60_000),
  );
});
