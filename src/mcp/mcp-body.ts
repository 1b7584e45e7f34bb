import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest JSON-RPC body accepted on /mcp; larger ones get 413 before they are read in full. */
export const MCP_BODY_LIMIT = '1mb';

/**
 * The one JSON parser of /mcp bodies (Express's body-parser: limit, charset, media type, decoding
 * and its errors), used by the MCP controller after the rate-limit guard, and by the replay cache in
 * front of Express (after its count) to replay a remembered call.
 */
const parser = express.json({ limit: MCP_BODY_LIMIT });

/**
 * Reads a POST's body into `req.body` once: the outcome (a body, or the parser's error) stays with the
 * request, so the controller takes what the replay cache already read instead of reading again.
 */
export function readMcpBody(req: IncomingMessage, res: ServerResponse, done: (error?: unknown) => void): void {
  parser(req as express.Request, res as express.Response, (error?: unknown) => done(error));
}
