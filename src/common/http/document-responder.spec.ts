import type { Request, Response } from 'express';
import { EventEmitter } from 'node:events';
import { JsonDocument } from '../../dataset/json-document';
import { contextOf } from '../../request/request-context';
import type { CommonHeaders } from './common-headers';
import { ContentEncodings } from './content-encoding';
import { DocumentResponder } from './document-responder';
import { FastPaths } from './fast-paths';

/** Just enough of a request and a response for the responder: what it reads and what it writes. */
function exchange(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const req = Object.assign(new EventEmitter(), { url, method, headers, route: { path: '/doc' } }) as unknown as Request;
  const written: { status?: number; headers?: string[]; body?: Buffer } = {};
  const res = {
    writeHead(status: number, list: string[]) {
      written.status = status;
      written.headers = list;
      return this;
    },
    end(body?: Buffer) {
      written.body = body;
    },
  } as unknown as Response;
  return { req, res, written };
}

describe(DocumentResponder.name, () => {
  const snapshot = { version: 'a' };
  const dataset = { current: snapshot as unknown };
  let fastPaths: FastPaths;
  let responder: DocumentResponder;
  const doc = new JsonDocument({ hello: 'world' }, '2026-11-26');
  const common = { flat: () => ['X-Common', 'yes'] } as unknown as CommonHeaders;

  beforeEach(() => {
    dataset.current = snapshot;
    fastPaths = new FastPaths(dataset as never);
    responder = new DocumentResponder(fastPaths, new ContentEncodings(), common);
  });

  it('remembers a document only for routes that opt in', () => {
    const plain = exchange('/plain');
    responder.send(plain.req, plain.res, doc);
    expect(plain.written.status).toBe(200);
    expect(fastPaths.lookup('/plain')).toBeUndefined();

    const opted = exchange('/doc');
    responder.sendRemembered(opted.req, opted.res, doc);
    expect(fastPaths.lookup('/doc')?.pick(opted.req)).toBe(doc);
    expect(fastPaths.lookup('/doc')?.route).toBe('/doc');
  });

  it('never remembers an answer for a target with a query, nor answers one from memory', () => {
    const withQuery = exchange('/doc?page=2');
    responder.sendRemembered(withQuery.req, withQuery.res, doc);
    expect(fastPaths.lookup('/doc')).toBeUndefined();
    expect(fastPaths.lookup('/doc?page=2')).toBeUndefined();

    const plain = exchange('/doc');
    responder.sendRemembered(plain.req, plain.res, doc);
    expect(fastPaths.lookup('/doc')).toBeDefined();
    expect(fastPaths.lookup('/doc?page=3')).toBeUndefined();
  });

  it('forgets what it remembered when another dataset version is served', () => {
    const first = exchange('/doc');
    responder.sendRemembered(first.req, first.res, doc);
    dataset.current = { version: 'b' };
    expect(fastPaths.lookup('/doc')).toBeUndefined();
  });

  it('writes the body with its ETag and the common headers in one writeHead, and records the bytes sent', () => {
    const { req, res, written } = exchange('/doc');
    responder.send(req, res, doc);
    const headers = Object.fromEntries(Array.from({ length: written.headers!.length / 2 }, (_, i) => [written.headers![2 * i], written.headers![2 * i + 1]]));
    expect(headers).toMatchObject({ 'X-Common': 'yes', ETag: doc.etag, 'Content-Length': String(doc.body.length) });
    expect(written.body?.equals(doc.body)).toBe(true);
    expect(contextOf(req).sentBytes).toBe(doc.body.length);
  });

  it('answers 304 with no body for a matching If-None-Match, and no body for HEAD', () => {
    const conditional = exchange('/doc', { 'if-none-match': `W/${doc.etag}, "other"` });
    responder.send(conditional.req, conditional.res, doc);
    expect([conditional.written.status, conditional.written.body]).toEqual([304, undefined]);
    expect(contextOf(conditional.req).sentBytes).toBe(0);

    const head = exchange('/doc', {}, 'HEAD');
    responder.send(head.req, head.res, doc);
    expect([head.written.status, head.written.body]).toEqual([200, undefined]);
  });

  it('refuses with 406 when the client accepts no coding the document has', () => {
    const { req, res } = exchange('/doc', { 'accept-encoding': 'identity;q=0' });
    expect(() => responder.send(req, res, doc)).toThrow(expect.objectContaining({ status: 406, code: 'not_acceptable' }));
  });
});
