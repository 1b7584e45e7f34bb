import accepts from 'accepts';
import type { IncomingMessage } from 'node:http';

/** True when the client ranks text/markdown above text/html (Accept q-values honoured). */
export function prefersMarkdown(req: IncomingMessage): boolean {
  // What Express's req.accepts does, usable before Express has set up the request (front door).
  return accepts(req).types(['text/html', 'text/markdown']) === 'text/markdown';
}

/** The form an error outside the API is written in, from the client's Accept header. */
export function errorForm(req: IncomingMessage): 'html' | 'markdown' | 'json' {
  const best = accepts(req).types(['text/html', 'application/json', 'text/markdown']);
  return best === 'application/json' ? 'json' : best === 'text/markdown' ? 'markdown' : 'html';
}
