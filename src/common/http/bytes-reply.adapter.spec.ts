import express from 'express';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BytesReplyAdapter } from './bytes-reply.adapter';

/** One request through a real Express response answered by the adapter's reply with `body`. */
async function replied(body: unknown, method = 'GET', statusCode?: number) {
  const app = express();
  const adapter = new BytesReplyAdapter(app);
  app.use((_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    adapter.reply(res, body, statusCode);
  });
  const server: Server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
      request({ port, host: '127.0.0.1', method, path: '/' }, resolve).on('error', reject).end(),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return { status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) };
  } finally {
    server.close();
  }
}

describe(BytesReplyAdapter.name, () => {
  it('writes bytes as they are, with the status asked for', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(await replied(bytes, 'GET', 203)).toEqual({ status: 203, type: 'text/plain', body: bytes });
  });

  it('sends no body for HEAD', async () => {
    expect((await replied(Buffer.from('abc'), 'HEAD')).body.length).toBe(0);
  });

  it("leaves anything else to Nest's reply (an object is JSON)", async () => {
    const { body } = await replied({ a: 1 });
    expect(JSON.parse(body.toString())).toEqual({ a: 1 });
  });
});
