import { API_OPERATIONS } from '../api-index/api-operations.js';
import { ERROR_CODES } from '../common/errors/error-codes.js';
import { TOOLS } from '../mcp/tools/index.js';
import { table } from './markdown-text.js';
import type { PageContext } from './page-context.js';
import { MCP_PATH } from '../common/http/mcp-path.js';

/** `/docs.md`: the API reference as markdown, for agents that read markdown rather than OpenAPI. */
export function apiDocsMarkdown(ctx: PageContext): string {
  const { config } = ctx;
  const { requests, windowSeconds } = config.rateLimit;
  return [
    '# vpsapi API',
    '',
    `Read-only JSON API over the VPS dataset (version ${ctx.snapshot.version}). No authentication. OpenAPI 3.1: ${config.url('/openapi.json')}.`,
    '',
    '## Endpoints',
    '',
    table(
      ['Operation', 'GET', 'Returns'],
      Object.values(API_OPERATIONS).map((op) => [op.operationId, config.url(op.path), op.description]),
    ),
    '',
    '## Conventions',
    '',
    '- Every document has a strong `ETag`; send it in `If-None-Match` to get `304 Not Modified`. `Cache-Control: public, max-age=300`.',
    `- Rate limit: ${requests} requests per ${windowSeconds} seconds per client. Headers \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`, \`RateLimit-Policy\` on every response; \`Retry-After\` on 429 and 503.`,
    '- CORS is open (`Access-Control-Allow-Origin: *`). Changes are additive; a withdrawn field is announced with `Deprecation` and `Sunset` headers.',
    `- Errors: \`{"error": {"code", "message", "status", "resolution", "documentation"}}\` with codes ${ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`,
    '',
    '## MCP tools',
    '',
    `Endpoint \`${config.url(MCP_PATH)}\` (Streamable HTTP, stateless).`,
    '',
    ...TOOLS.flatMap((tool) => [
      `### ${tool.name}`,
      '',
      tool.description,
      '',
      ...Object.entries(tool.inputSchema).map(([name, schema]) => `- \`${name}\`: ${schema.description ?? ''}`),
      '',
    ]),
  ].join('\n');
}
