import { Inject, Injectable, Optional } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '../../config/app-config.js';
import { JSON_CONTENT_TYPE } from '../../dataset/json-document.js';
import { isApiPath } from '../http/api-paths.js';
import { jsonRpcError } from '../http/json-rpc-error.js';
import { isMcpPath } from '../http/mcp-path.js';
import { errorForm } from '../http/negotiation.js';
import { toEnvelope } from './envelope.js';
import { ERROR_PAGES, type ErrorPages } from './error-pages.js';
import type { HttpProblem } from './http-problem.js';

/** The form an error is written in: a JSON-RPC error (/mcp), the JSON envelope, or a page. */
export type ErrorForm = 'mcp' | 'json' | 'html' | 'markdown';

/** An error answer ready to write: status, body and every header of its own (the common ones aside). */
export interface RenderedProblem {
  status: number;
  body: Buffer;
  /** The error's own headers (page headers, the problem's, Content-Type, -Length, Cache-Control), in writing order. */
  headers: readonly (readonly [string, string])[];
}

/**
 * Turns a problem into the bytes and headers of its answer: the envelope under /api/, a JSON-RPC error
 * on /mcp, and elsewhere a page (HTML, or markdown when asked for) unless the client asked for JSON.
 * The error filter writes what this renders, and so do the parser-level refusals
 * (MalformedRequestAnswer): one rendering, two writers. A problem made once and thrown for many requests
 * (the catch-all's 404) is rendered once per JSON form; pages are the dataset's, so they are looked up
 * each time.
 */
@Injectable()
export class ProblemRenderer {
  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(ERROR_PAGES) private readonly pages?: ErrorPages,
  ) {}

  /** The form an error to `req` for `path` is written in. */
  formOf(path: string, req: IncomingMessage): ErrorForm {
    if (isMcpPath(path)) return 'mcp';
    if (isApiPath(path) || !this.pages) return 'json';
    return errorForm(req);
  }

  /** Renderings of the JSON forms, by problem: they depend on the problem and the configuration only. */
  private readonly rendered = new WeakMap<HttpProblem, Partial<Record<'json' | 'mcp', RenderedProblem>>>();

  render(problem: HttpProblem, form: ErrorForm): RenderedProblem {
    if (form !== 'json' && form !== 'mcp') return this.renderNow(problem, form);
    let forms = this.rendered.get(problem);
    if (!forms) this.rendered.set(problem, (forms = {}));
    return (forms[form] ??= this.renderNow(problem, form));
  }

  private renderNow(problem: HttpProblem, form: ErrorForm): RenderedProblem {
    const { body, contentType, headers } = this.body(problem, form);
    return {
      status: problem.status,
      body,
      headers: [
        ...headers,
        ...Object.entries(problem.headers),
        ['Content-Type', contentType],
        ['Content-Length', String(body.length)],
        ['Cache-Control', 'no-store'],
      ],
    };
  }

  private body(
    problem: HttpProblem,
    form: ErrorForm,
  ): { body: Buffer; contentType: string; headers: readonly (readonly [string, string])[] } {
    if (form === 'mcp') return json(jsonRpcError(problem));
    if (form === 'json' || !this.pages) return json(toEnvelope(problem, this.config));
    const page = this.pages.pageFor(problem, form);
    return {
      body: page.body,
      contentType: page.contentType,
      headers: (page.headers ?? []).filter(([name]) => name !== 'Link'),
    };
  }
}

const json = (value: unknown) => ({
  body: Buffer.from(JSON.stringify(value)),
  contentType: JSON_CONTENT_TYPE,
  headers: [] as const,
});
