import { ApiProperty } from '@nestjs/swagger';
import { License } from '../../dataset/dto/meta.dto.js';

/** The rate limit every client is held to. */
export class RateLimitInfo {
  /** Requests allowed per window and client. */
  @ApiProperty({ type: 'integer', minimum: 1, example: 600 })
  requests: number;

  /** Window length in seconds. */
  @ApiProperty({ type: 'integer', minimum: 1, example: 60 })
  windowSeconds: number;

  /** Headers that report the limit on every response (`Retry-After` on 429 and 503). */
  @ApiProperty({
    example: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After'],
  })
  headers: string[];
}

/** One endpoint of the API. */
export class EndpointInfo {
  @ApiProperty({ example: 'getProvider' })
  operationId: string;

  @ApiProperty({ enum: ['GET'] })
  method: 'GET';

  /** Absolute URL template; `{name}` marks a path parameter. */
  @ApiProperty({ example: 'http://localhost:3000/api/providers/{providerId}.json' })
  url: string;

  description: string;
}

/** Where AI agents connect. */
export class McpInfo {
  /** The Model Context Protocol endpoint (Streamable HTTP, stateless, no authentication). */
  @ApiProperty({ format: 'uri' })
  endpoint: string;

  /** The server card describing the MCP server and its tools. */
  @ApiProperty({ format: 'uri' })
  serverCard: string;
}

/** What the API serves and where everything is. */
export class ApiIndex {
  @ApiProperty({ example: 'vpsapi' })
  name: string;

  /** Dataset version, `YYYY-MM-DD`. */
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  version: string;

  description: string;

  /** Human documentation (Swagger UI). */
  @ApiProperty({ format: 'uri' })
  documentation: string;

  /** The OpenAPI 3.1 document. */
  @ApiProperty({ format: 'uri' })
  openapi: string;

  /** The llms.txt overview for language models. */
  @ApiProperty({ format: 'uri' })
  llmsTxt: string;

  /** The Atom feed of dataset releases (`listDatasetChanges` as a feed). */
  @ApiProperty({ format: 'uri' })
  changesFeed: string;

  /** No authentication: every endpoint is public. */
  @ApiProperty({ enum: ['none'] })
  authentication: 'none';

  rateLimit: RateLimitInfo;

  /** Terms of reuse of the data. */
  license: License;

  endpoints: EndpointInfo[];

  mcp: McpInfo;
}
