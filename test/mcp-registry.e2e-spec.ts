import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_PATH } from '../src/common/http/mcp-path';
import { PROTOCOL_VERSIONS, SERVER_INFO } from '../src/mcp/server-info';
import { connectMcp } from './support/mcp-client';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * server.json, what the MCP registry lists (a remote server over Streamable HTTP, its URL a template on
 * the deployment's PUBLIC_BASE_URL): valid against the registry's schema (a copy, test/fixtures/mcp-registry),
 * and true to the server it describes.
 */
const schema = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'mcp-registry', 'server.schema.json'), 'utf8'));
const serverJson = JSON.parse(readFileSync(join(__dirname, '..', 'server.json'), 'utf8'));
const meta = serverJson._meta['io.modelcontextprotocol.registry/publisher-provided'];

function validate(document: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const check = ajv.compile(schema);
  return check(document) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('server.json for the MCP registry', () => {
  it('is valid against the registry schema', () => {
    expect(validate(serverJson)).toEqual([]);
  });

  it('is refused by the schema when it breaks a rule, so the check can fail', () => {
    expect(validate({ ...serverJson, description: 'x'.repeat(101) })).not.toEqual([]);
    expect(validate({ ...serverJson, name: 'vpsapi' })).not.toEqual([]);
    expect(
      validate({ ...serverJson, remotes: [{ type: 'streamable-http', url: 'vpsapi.example.com/mcp' }] }),
    ).not.toEqual([]);
  });

  it('describes one remote over Streamable HTTP whose URL template fills in the deployment base URL', () => {
    expect(serverJson.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(serverJson.packages).toBeUndefined();
    expect(serverJson.remotes).toHaveLength(1);
    const [remote] = serverJson.remotes;
    expect(remote.type).toBe('streamable-http');
    expect(remote.url).toBe(`{base_url}${MCP_PATH}`);
    expect(Object.keys(remote.variables)).toEqual(['base_url']);
    expect(remote.variables.base_url.isRequired).toBe(true);
  });

  it('names the version, title and protocol versions the server announces', () => {
    expect({ version: serverJson.version, title: serverJson.title }).toEqual({
      version: SERVER_INFO.version,
      title: SERVER_INFO.title,
    });
    expect(meta.protocolVersions).toEqual(PROTOCOL_VERSIONS);
    expect(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version).toBe(serverJson.version);
  });

  describe('against a running server', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('connects the SDK client to the URL the template makes of the base URL, on each 2025 protocol version it lists', async () => {
      const url = serverJson.remotes[0].url.replace('{base_url}', t.baseUrl);
      expect(url).toBe(`${t.baseUrl}/mcp`);
      for (const protocolVersion of meta.protocolVersions.filter((v: string) => v.startsWith('2025-'))) {
        const client = await connectMcp(t.baseUrl, { era: 'legacy', protocolVersion });
        try {
          expect([protocolVersion, client.getNegotiatedProtocolVersion()]).toEqual([protocolVersion, protocolVersion]);
          expect((await client.listTools()).tools.length).toBeGreaterThan(5);
        } finally {
          await client.close();
        }
      }
    });

    it('serves the server card the template names, with the same protocol versions', async () => {
      const path = meta.serverCard.replace('{base_url}', '');
      const card = await t.http.get(path).expect(200);
      expect(card.body.protocolVersions).toEqual(meta.protocolVersions);
      expect(card.body.version).toBe(serverJson.version);
    });
  });
});

describe('licences', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  const licence = readFileSync(join(__dirname, '..', 'LICENSE'), 'utf8');
  const dataLicence = JSON.parse(readFileSync(join(__dirname, '..', 'data', 'meta.json'), 'utf8')).license;

  it('puts the code under the MIT licence, in package.json and LICENSE', () => {
    expect(pkg.license).toBe('MIT');
    expect(licence).toContain('MIT License');
    expect(licence).toContain('Permission is hereby granted, free of charge');
  });

  it('keeps the data under CC BY 4.0 with its credit line, in the dataset, LICENSE and server.json', () => {
    expect(dataLicence.name).toBe('CC BY 4.0');
    expect(licence).toContain(dataLicence.credit);
    expect(meta.dataLicense).toBe(dataLicence.name);
  });
});
