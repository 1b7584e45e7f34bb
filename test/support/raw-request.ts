import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names and values as sent, in order, to spot a header sent twice. */
  rawHeaders: string[];
  body: Buffer;
}

/** A request body: sent with its Content-Length, or `chunked` (Transfer-Encoding: chunked, no length). */
export interface RawBody {
  data: string | Buffer;
  chunked?: boolean;
}

/** One request whose answer is read as the exact bytes on the wire: no client-side decoding. */
export function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: RawBody,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sent =
      body && !body.chunked ? { ...headers, 'content-length': String(Buffer.byteLength(body.data)) } : headers;
    const req = http.request(url, { method, headers: sent, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(body.data);
    req.end();
  });
}

/**
 * Asks for `url` in `encoding` until the server answers in it. Variants are compressed in the
 * background the first time a document is asked for, and until then the identity form is sent, so a
 * test that needs the compressed answer waits for it instead of guessing how long compression takes.
 * The caller sets the bound (generous: compression competes for shared cores); its failure says what
 * did not happen.
 */
export async function waitForEncoding(url: string, encoding: string, timeoutMs: number): Promise<RawResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await rawRequest(url, { 'accept-encoding': encoding });
    if (res.headers['content-encoding'] === encoding) return res;
    if (Date.now() > deadline) throw new Error(`${url} was still answered without ${encoding} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
