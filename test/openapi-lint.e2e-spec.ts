import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run } from './support/processes.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/*
 * The linters API users run on the served /openapi.json, each with the project's ruleset file:
 * Spectral's `spectral:oas` (.spectral.yaml, through the CLI) and Redocly's `recommended`
 * (redocly.yaml). Both must report no error and no warning. Each is also shown a broken copy, so a
 * linter that stopped reading the document could not pass silently.
 */
const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'test-results', 'openapi-lint');

interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  where: string;
  message: string;
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

async function spectral(doc: unknown, name: string): Promise<Finding[]> {
  const file = join(OUT, name);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const cli = join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
  const { stdout, stderr } = await run(
    process.execPath,
    [
      cli,
      'lint',
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
      file,
    ],
    {},
    120_000,
  );
  const start = stdout.indexOf('[');
  if (start === -1) throw new Error(`spectral printed no results: ${stdout} ${stderr}`);
  return (JSON.parse(stdout.slice(start)) as { code: string; severity: number; path: string[]; message: string }[]).map(
    (r) => ({
      rule: r.code,
      severity: SPECTRAL_SEVERITY[r.severity],
      where: r.path.join('.'),
      message: r.message,
    }),
  );
}

async function redocly(doc: unknown, name: string): Promise<Finding[]> {
  const config = await loadConfig({ configPath: join(ROOT, 'redocly.yaml') });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: name, config });
  return problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === 'warn' ? 'warning' : p.severity,
    where: p.location[0]?.pointer ?? '',
    message: p.message,
  }));
}

const serious = (findings: Finding[]) => findings.filter((f) => f.severity === 'error' || f.severity === 'warning');

/** A copy with one fault each linter reports as an error and one it reports as a warning. */
function broken(doc: any): any {
  const copy = structuredClone(doc);
  copy.paths['/api/index.json'].get.operationId = 'listProviders';
  delete copy.info.contact;
  delete copy.paths['/api/guides.json'].get.summary;
  copy.paths['/api/guides.json'].get.responses = { '200': copy.paths['/api/guides.json'].get.responses['200'] };
  return copy;
}

describe('the served OpenAPI document under Spectral and Redocly', () => {
  let t: TestApp;
  let doc: any;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    t = await startTestApp();
    doc = (await t.http.get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it("passes Spectral's spectral:oas ruleset with no error and no warning", async () => {
    expect(serious(await spectral(doc, 'openapi.json'))).toEqual([]);
    const faults = await spectral(broken(doc), 'broken.json');
    expect(faults.map((f) => `${f.severity} ${f.rule}`)).toEqual(
      expect.arrayContaining(['error operation-operationId-unique', 'warning info-contact']),
    );
  }, 180_000);

  it("passes Redocly's recommended ruleset with no error and no warning", async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(serious(await redocly(doc, 'openapi.json'))).toEqual([]);
    const faults = await redocly(broken(doc), 'broken.json');
    expect(faults.map((f) => `${f.severity} ${f.rule}`)).toEqual(
      expect.arrayContaining([
        'error operation-operationId-unique',
        'error operation-summary',
        'warning operation-4xx-response',
      ]),
    );
  }, 60_000);
});
