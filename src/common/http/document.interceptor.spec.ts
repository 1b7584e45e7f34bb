import { StreamableFile, type CallHandler, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { lastValueFrom, of } from 'rxjs';
import { JsonDocument } from '../../dataset/json-document';
import { ContentEncodings } from './content-encoding';
import { DocumentInterceptor } from './document.interceptor';

/** Just enough of a request, a response and an execution context for the interceptor. */
function exchange(headers: Record<string, string> = {}, method = 'GET') {
  const req = { method, headers } as unknown as Request;
  const written: Record<string, string> = {};
  const state = { status: 200 };
  const res = {
    setHeader: (name: string, value: string) => (written[name] = value),
    status: (status: number) => {
      state.status = status;
      return res;
    },
  } as unknown as Response;
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { context, written, state };
}

const handler = (value: unknown): CallHandler => ({ handle: () => of(value) });

describe(DocumentInterceptor.name, () => {
  const interceptor = new DocumentInterceptor(new ContentEncodings());
  const doc = new JsonDocument({ hello: 'world' }, '2026-11-26', [], [['Cache-Control', 'public, max-age=3600']]);
  const answer = (headers: Record<string, string>, value: unknown = doc, method = 'GET') => {
    const ex = exchange(headers, method);
    return { ...ex, result: lastValueFrom(interceptor.intercept(ex.context, handler(value))) };
  };

  it('hands Nest the body as a StreamableFile with its type and length, and sets the document headers once each', async () => {
    const { result, written, state } = answer({});
    const file = (await result) as StreamableFile;
    expect(file).toBeInstanceOf(StreamableFile);
    expect(file.getHeaders()).toMatchObject({ type: doc.contentType, length: doc.body.length });
    expect(state.status).toBe(200);
    // The document's own Cache-Control wins over the default policy.
    expect(written).toMatchObject({
      ETag: doc.etag,
      'Cache-Control': 'public, max-age=3600',
      Vary: 'Accept-Encoding',
      'Last-Modified': 'Thu, 26 Nov 2026 00:00:00 GMT',
    });
  });

  it('answers 304 with no body for a matching If-None-Match (weak comparison, lists)', async () => {
    const { result, state } = answer({ 'if-none-match': `W/${doc.etag}, "other"` });
    expect(await result).toBeUndefined();
    expect(state.status).toBe(304);
  });

  it('sends the document for an If-None-Match that names another entity', async () => {
    const { result, state } = answer({ 'if-none-match': '"other"' });
    expect(await result).toBeInstanceOf(StreamableFile);
    expect(state.status).toBe(200);
  });

  it('refuses with 406 when the client accepts no coding the document has', async () => {
    await expect(answer({ 'accept-encoding': 'identity;q=0' }).result).rejects.toMatchObject({
      status: 406,
      code: 'not_acceptable',
    });
  });

  it('passes any other value a handler returns untouched', async () => {
    const value = { status: 'up' };
    expect(await answer({}, value).result).toBe(value);
  });
});
