/** The path of the MCP endpoint: the one place it is spelled. */
export const MCP_PATH = '/mcp';

export const isMcpPath = (path: string) => path === MCP_PATH;

/**
 * The largest body a POST to /mcp may have, in bytes. The largest legitimate request is a batch of
 * ordinary calls (a hundred tool calls of a few hundred bytes each, some 30 KB) or one call carrying
 * the largest params accepted (16 KiB); a body over it gets 413, from its Content-Length before it is read.
 */
export const MCP_BODY_LIMIT_BYTES = 64 * 1024;
