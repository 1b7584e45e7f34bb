import { Injectable } from '@nestjs/common';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
// Only the path helper: the package's main entry evaluates the whole UI bundle (tens of MB of heap).
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { AppConfig } from '../config/app-config.js';
import { StaticAsset } from './static-asset.js';

/** swagger-ui-dist files the page loads, with their media types. */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Swagger UI at /docs: the page, our initializer and the swagger-ui-dist assets, each read into memory
 * once, the dist files (about 1.9 MB) on their first request: most instances never serve a browser
 * the documentation page. That the files are there is checked at start. Serving them through our
 * own controller keeps /docs inside the same pipeline (headers, errors, limits) as every other route,
 * and the page has no inline script, so a strict CSP fits.
 */
@Injectable()
export class SwaggerUiService {
  readonly page: StaticAsset;
  private readonly assets = new Map<string, StaticAsset>();
  private readonly dir = getAbsoluteFSPath();

  constructor(config: AppConfig) {
    for (const name of Object.keys(DIST_FILES)) accessSync(join(this.dir, name), constants.R_OK);
    const initializer = [
      'window.addEventListener("load", function () {',
      '  window.ui = SwaggerUIBundle({',
      // Relative to /docs, like the assets below: the contract from the origin the browser reached.
      '    url: "openapi.json",',
      '    dom_id: "#swagger-ui",',
      '    deepLinking: true,',
      '    tryItOutEnabled: false,',
      '    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],',
      '    layout: "StandaloneLayout"',
      '  });',
      '});',
      '',
    ].join('\n');
    this.assets.set(
      'swagger-initializer.js',
      new StaticAsset(Buffer.from(initializer), 'text/javascript; charset=utf-8'),
    );
    // Swagger UI sets inline styles from script and fetches the contract and "try it out" calls from
    // the public origin; nothing else is allowed.
    const origin = new URL(config.publicBaseUrl).origin;
    this.page = new StaticAsset(Buffer.from(PAGE), 'text/html; charset=utf-8', [
      [
        'Content-Security-Policy',
        `default-src 'none'; script-src 'self' ${origin}; style-src 'self' ${origin} 'unsafe-inline'; img-src 'self' ${origin} data:; connect-src 'self' ${origin}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      ],
      ['X-Content-Type-Options', 'nosniff'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ]);
  }

  /** One asset by file name, or undefined. */
  asset(name: string): StaticAsset | undefined {
    const known = this.assets.get(name);
    if (known !== undefined || !Object.hasOwn(DIST_FILES, name)) return known;
    const asset = new StaticAsset(readFileSync(join(this.dir, name)), DIST_FILES[name]);
    this.assets.set(name, asset);
    return asset;
  }
}

// Asset URLs are relative to /docs, so the page also works under a path prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>vpsapi: API documentation</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-ui-standalone-preset.js"></script>
  <script src="docs/swagger-initializer.js"></script>
</body>
</html>
`;
