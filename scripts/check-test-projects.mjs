// `npm run test:projects`: proves that `npm test` and `npm run test:system` together run every spec file.
// Jest itself says which files each project of jest.config.js holds (`jest --listTests`), so the check
// reads the same matching rules the runs use. It fails when
//   - a file under test/ named *.e2e-spec.ts belongs to neither the e2e nor the system project, or to both;
//   - a spec beside the code (src/**/*.spec.ts) is not in the unit project;
//   - a project lists a file that is not one of those (a pattern that reaches too far);
//   - a project of jest.config.js is selected by neither script, or .ci/run no longer runs both.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import config from '../jest.config.js';

const root = resolve(import.meta.dirname, '..');
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const problems = [];

/** Spec files on disk under `dir` whose names end with `suffix`, relative to the root. */
function specs(dir, suffix) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(suffix) && !f.split('/').includes('node_modules'))
    .map((f) => join(dir, f))
    .sort();
}

/** The files jest runs for one project, relative to the root. */
function listed(project) {
  const out = execFileSync(process.execPath, [jest, '--listTests', '--json', '--selectProjects', project], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out).map((f) => relative(root, f)).sort();
}

const projects = config.projects.map((p) => p.displayName);
const files = Object.fromEntries(projects.map((p) => [p, listed(p)]));
const e2eSpecs = specs('test', '.e2e-spec.ts');
const unitSpecs = specs('src', '.spec.ts');

for (const file of e2eSpecs) {
  const owners = ['e2e', 'system'].filter((p) => files[p].includes(file));
  if (owners.length !== 1) problems.push(`${file} is in ${owners.length === 0 ? 'neither the e2e nor the system project' : 'both the e2e and the system project'}`);
}
for (const file of unitSpecs) if (!files.unit.includes(file)) problems.push(`${file} is not in the unit project`);
for (const project of projects) {
  const expected = project === 'unit' ? unitSpecs : e2eSpecs;
  for (const file of files[project]) if (!expected.includes(file)) problems.push(`the ${project} project runs ${file}, which is not a ${project === 'unit' ? 'src/**/*.spec.ts' : 'test/**/*.e2e-spec.ts'} file`);
  if (files[project].length === 0) problems.push(`the ${project} project runs no file`);
}
// Which script selects which project: every project is run by `npm test` or `npm run test:system`.
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const selected = (script) => {
  const words = (scripts[script] ?? '').split(/\s+/);
  const at = words.indexOf('--selectProjects');
  if (at === -1) return projects; // jest without a selection runs every project
  const names = [];
  for (const word of words.slice(at + 1)) {
    if (word.startsWith('-') || word === '&&') break;
    names.push(word);
  }
  return names;
};
const COMMANDS = ['test', 'test:system'];
const run = new Set(COMMANDS.flatMap(selected));
for (const project of projects) if (!run.has(project)) problems.push(`the ${project} project is run by neither npm test nor npm run test:system`);
const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
for (const command of ['npm test', 'npm run test:system']) {
  if (!ci.split('\n').some((line) => !line.trim().startsWith('#') && line.includes(command))) problems.push(`.ci/run does not run ${command}`);
}

if (problems.length > 0) {
  console.error(`Test projects do not cover every spec exactly once:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `Test projects: ${projects.map((p) => `${p} ${files[p].length}`).join(', ')}; every one of ${e2eSpecs.length} e2e and ${unitSpecs.length} unit spec files is run (npm test: ${selected('test').join(', ')}; npm run test:system: ${selected('test:system').join(', ')}).`,
);
