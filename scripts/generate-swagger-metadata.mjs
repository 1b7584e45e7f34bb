// Runs the @nestjs/swagger CLI plugin in read-only mode over src/ and writes src/metadata.ts, so the
// OpenAPI document is the same whether the code was compiled by `nest build` (tsc) or by swc under jest.
import { PluginMetadataGenerator } from '@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js';
import { ReadonlyVisitor } from '@nestjs/swagger/plugin';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const cli = JSON.parse(readFileSync(resolve(root, 'nest-cli.json'), 'utf8'));
const options = cli.compilerOptions.plugins.find((p) => p.name === '@nestjs/swagger').options;

new PluginMetadataGenerator().generate({
  visitors: [new ReadonlyVisitor({ ...options, pathToSource: resolve(root, 'src') })],
  outputDir: resolve(root, 'src'),
  watch: false,
  tsconfigPath: 'tsconfig.build.json',
});
