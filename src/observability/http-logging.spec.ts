import type { Request } from 'express';
import pino from 'pino';
import { httpLoggingOptions } from './http-logging';

describe('httpLoggingOptions', () => {
  const serialize = httpLoggingOptions(pino({ level: 'silent' })).serializers!.req as (req: Request) => {
    client?: string;
  };
  const request = (ip: string) =>
    ({ method: 'GET', url: '/api/index.json', originalUrl: '/api/index.json', ip, socket: {} }) as unknown as Request;

  it("logs each request's own client network, also when consecutive requests come from different clients", () => {
    expect(serialize(request('203.0.113.7')).client).toBe('203.0.113.0/24');
    expect(serialize(request('203.0.113.99')).client).toBe('203.0.113.0/24');
    expect(serialize(request('198.51.100.1')).client).toBe('198.51.100.0/24');
    expect(serialize(request('2001:db8:1:2::7')).client).toBe('2001:db8:1::/48');
    expect(serialize(request('203.0.113.7')).client).toBe('203.0.113.0/24');
  });
});
