import type { HttpAdapterHost } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { JsonDocument } from '../../dataset/json-document';
import { BytesReplyAdapter } from './bytes-reply.adapter';
import { ContentEncodings } from './content-encoding';
import { DocumentAnswers } from './document-answers';

/** Just enough of a request and a response for DocumentAnswers. */
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
  return { req, res, written, state };
}

describe(DocumentAnswers.name, () => {
  const bytes = { httpAdapter: new BytesReplyAdapter() } as HttpAdapterHost;
  const answers = new DocumentAnswers(new ContentEncodings(), bytes);

  it('refuses to start under an adapter that would not write its bytes as they are', () => {
    expect(() => answers.onApplicationBootstrap()).not.toThrow();
    const plain = new DocumentAnswers(new ContentEncodings(), {
      httpAdapter: new ExpressAdapter(),
    } as HttpAdapterHost);
    expect(() => plain.onApplicationBootstrap()).toThrow(/BytesReplyAdapter/);
  });
  const doc = new JsonDocument({ hello: 'world' }, '2026-11-26', [], [['Cache-Control', 'public, max-age=3600']]);
  const answer = (headers: Record<string, string>, value: unknown = doc, method = 'GET') => {
    const ex = exchange(headers, method);
    // A promise, as Nest awaits the result: a refusal (406) is a rejection.
    return { ...ex, result: Promise.resolve().then(() => answers.answerOf(ex.req, ex.res, value)) };
  };

  it('hands Nest the bytes themselves with their type and length, and sets the document headers once each', async () => {
    const { result, written, state } = answer({});
    expect(await result).toBe(doc.body);
    expect(written).toMatchObject({ 'Content-Type': doc.contentType, 'Content-Length': doc.body.length });
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
    expect(await result).toBe(doc.body);
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
