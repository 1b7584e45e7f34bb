/** The path of the MCP endpoint: the one place it is spelled. */
export const MCP_PATH = '/mcp';

export const isMcpPath = (path: string) => path === MCP_PATH;
