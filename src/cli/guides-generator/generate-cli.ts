/**
 * `npm run guides:generate`: writes the generated guides into data/guides/.
 * `npm run guides:generate -- --check`: writes nothing; exits 1 listing files that differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateGuides } from './generate.js';

const dataDir = resolve('data');
const check = process.argv.includes('--check');
const files = await generateGuides(dataDir);
const stale: string[] = [];
for (const [name, content] of files) {
  const path = join(dataDir, 'guides', name);
  const current = await readFile(path, 'utf8').catch(() => undefined);
  if (current === content) continue;
  stale.push(name);
  if (!check) await writeFile(path, content);
}
if (check && stale.length > 0) {
  console.error(
    `${stale.length} generated guide(s) differ from data: ${stale.join(', ')}. Run npm run guides:generate.`,
  );
  process.exitCode = 1;
} else {
  console.log(`${files.size} generated guides, ${check ? 'all up to date' : `${stale.length} written`}.`);
}
