// Runs the @nestjs/swagger CLI plugin in read-only mode over src/ and writes src/metadata.ts, so the
// OpenAPI document is the same whether the code was compiled by `nest build` (tsc) or by swc under
// jest. `--check` writes to a temporary folder instead and fails when src/metadata.ts is stale.
import { PluginMetadataGenerator } from '@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js';
import { ReadonlyVisitor } from '@nestjs/swagger/plugin';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const check = process.argv.includes('--check');
const cli = JSON.parse(readFileSync('nest-cli.json', 'utf8'));
const options = cli.compilerOptions.plugins.find((p) => p.name === '@nestjs/swagger').options;
const outputDir = check ? mkdtempSync(join(tmpdir(), 'vpsapi-metadata-')) : resolve('src');

// The generator type-checks src/, which imports the current metadata.ts: a file that names a class the
// change removed would stop it. Start a rewrite from an empty stub.
if (!check) {
  writeFileSync(
    resolve('src/metadata.ts'),
    '/* eslint-disable */\nexport default async () => ({ "@nestjs/swagger": { models: [], controllers: [] } });\n',
  );
}

new PluginMetadataGenerator().generate({
  visitors: [new ReadonlyVisitor({ ...options, pathToSource: resolve('src') })],
  outputDir,
  watch: false,
  tsconfigPath: 'tsconfig.build.json',
  printDiagnostics: false,
});

if (check) {
  const fresh = readFileSync(join(outputDir, 'metadata.ts'), 'utf8');
  rmSync(outputDir, { recursive: true, force: true });
  if (fresh !== readFileSync('src/metadata.ts', 'utf8')) {
    console.error('src/metadata.ts is stale: run `npm run openapi:metadata` and commit the result.');
    process.exit(1);
  }
  console.log('src/metadata.ts is up to date.');
}
