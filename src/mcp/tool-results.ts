import type { CallToolResult } from '@modelcontextprotocol/server';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';

/** A successful result: the data as structuredContent and the same JSON as text. */
export function structured<T extends Record<string, unknown>>(data: T): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** A tool-level failure the model can read and act on. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A value from the caller, safe to quote back: JSON-quoted and cut short. */
export const quote = (value: string) => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

/**
 * Turns a domain error into an `isError` result that says what to do next; anything else is
 * rethrown (the SDK reports it without internals).
 */
export function domainErrorResult(error: unknown, hints: { list?: string } = {}): CallToolResult {
  if (error instanceof NotFoundError) {
    const parts = [`No ${error.kind} has the ${error.key} ${quote(error.id)}.`];
    if (error.closest.length > 0) parts.push(`Closest matches: ${error.closest.join(', ')}.`);
    if (error.validIds.length > 0) parts.push(`Valid ${error.key}s: ${error.validIds.join(', ')}.`);
    if (hints.list) parts.push(hints.list);
    return toolError(parts.join(' '));
  }
  if (error instanceof InvalidArgumentError) return toolError(`Invalid "${error.argument}": ${error.message}`);
  throw error;
}

/** Runs a handler body, turning domain errors into `isError` results. */
export function withDomainErrors(run: () => CallToolResult, hints: { list?: string } = {}): CallToolResult {
  try {
    return run();
  } catch (error) {
    return domainErrorResult(error, hints);
  }
}
