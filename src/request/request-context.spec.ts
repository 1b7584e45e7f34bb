import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { forgetOnConnection, lastRequestOn, rememberOnConnection } from './request-context';

describe('the last request on a connection', () => {
  const socket = {} as Socket;
  const request = (complete: boolean) => ({ socket, complete }) as unknown as IncomingMessage;
  const response = () => ({}) as ServerResponse;

  it('is forgotten once it is complete and answered, so a parser error after it is a new request', () => {
    const req = request(true);
    const res = response();
    rememberOnConnection(req, res);
    expect(lastRequestOn(socket)).toEqual({ req, res });
    forgetOnConnection(req, res);
    expect(lastRequestOn(socket)).toBeUndefined();
  });

  it('is kept while its body is still arriving, for an error in that body', () => {
    const req = request(false);
    const res = response();
    rememberOnConnection(req, res);
    forgetOnConnection(req, res);
    expect(lastRequestOn(socket)?.req).toBe(req);
  });

  it("does not forget the connection's next request when an earlier one finishes", () => {
    const earlier = request(true);
    const earlierRes = response();
    const next = request(true);
    const nextRes = response();
    rememberOnConnection(earlier, earlierRes);
    rememberOnConnection(next, nextRes);
    forgetOnConnection(earlier, earlierRes);
    expect(lastRequestOn(socket)?.req).toBe(next);
  });
});
