import accepts from 'accepts';
import type { IncomingMessage } from 'node:http';

/** Distinct Accept values remembered per question; clients send few (browsers, curl, agents, scanners). */
const MAX_REMEMBERED = 256;
/** Longer Accept values are negotiated every time rather than kept. */
const MAX_REMEMBERED_LENGTH = 512;

/**
 * A negotiation whose answer depends on the Accept header alone, remembered per header value so
 * that a repeated value is not parsed again (pages ask on every request, and the error filter on every
 * error outside the API). Bounded: past MAX_REMEMBERED values, or for a long value, it negotiates each time.
 */
export function byAccept<T>(negotiate: (req: IncomingMessage) => T): (req: IncomingMessage) => T {
  const answers = new Map<string | undefined, T>();
  return (req) => {
    const accept = req.headers.accept;
    const known = answers.get(accept);
    if (known !== undefined) return known;
    const answer = negotiate(req);
    if (answers.size < MAX_REMEMBERED && (accept === undefined || accept.length <= MAX_REMEMBERED_LENGTH))
      answers.set(accept, answer);
    return answer;
  };
}

/** True when the client ranks text/markdown above text/html (Accept q-values honoured). */
export const prefersMarkdown: (req: IncomingMessage) => boolean = byAccept(
  // What Express's req.accepts does, usable on a request Express has not set up (a parser-level refusal).
  (req) => accepts(req).types(['text/html', 'text/markdown']) === 'text/markdown',
);

/** The form an error outside the API is written in, from the client's Accept header. */
export const errorForm: (req: IncomingMessage) => 'html' | 'markdown' | 'json' = byAccept((req) => {
  const best = accepts(req).types(['text/html', 'application/json', 'text/markdown']);
  return best === 'application/json' ? 'json' : best === 'text/markdown' ? 'markdown' : 'html';
});
