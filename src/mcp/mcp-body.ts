import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction } from 'express';
import { contextOf } from '../request/request-context.js';

/** Largest JSON-RPC body accepted on /mcp; larger ones get 413 before they are read in full. */
export const MCP_BODY_LIMIT = '1mb';

/**
 * The one JSON parser of /mcp bodies (Express's body-parser: limit, charset, media type, decoding
 * and its errors). Both entry points use it: the front door reads a body with it to answer a
 * remembered call (McpDoor), and the Express step below reads it for every other POST.
 */
const parser = express.json({ limit: MCP_BODY_LIMIT });

/**
 * Reads a POST's body into `req.body` and records the outcome on the request, so that when the
 * request goes on to Express its body step takes the same outcome (the body can be read only once).
 */
export function readMcpBody(req: IncomingMessage, res: ServerResponse, done: (error?: unknown) => void): void {
  parser(req as express.Request, res as express.Response, (error?: unknown) => {
    contextOf(req).bodyRead = { error };
    done(error);
  });
}

/**
 * The Express step that reads a POST's body: the outcome the front door already had (a body, or
 * the parser's error for the error filter), or the parser now.
 */
export function mcpBodyStep(req: express.Request, res: express.Response, next: NextFunction): void {
  const read = contextOf(req).bodyRead;
  if (read) return next(read.error);
  parser(req, res, next);
}
