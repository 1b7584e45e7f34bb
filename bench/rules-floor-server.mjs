// The rules floor: the same table of recorded responses as baseline-server.mjs, answered by a NestJS
// application on Express that applies every rule the service applies, each the way its library
// documents it, and nothing else: @nestjs/throttler's ThrottlerGuard (APP_GUARD) counting every request
// in the service's O(1) storage, one interceptor (APP_INTERCEPTOR) writing the answer's headers, one
// exception filter (APP_FILTER) writing errors, nestjs-pino's LoggerModule (a pino-http access line per
// request through pino's asynchronous destination) and a prom-client counter and histogram per request
// in a middleware. No dataset, pages, MCP, content negotiation or request context. Its ratio to the
// bare server is what the design card's pipeline costs on its own, wherever it is built; the service
// cannot be expected above it. Started by bench.mjs with the table on stdin, after `npm run build`.
import 'reflect-metadata';
import { All, Catch, Controller, Injectable, Module, Req } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { map } from 'rxjs';
import { FixedWindowMemoryStorage } from '../dist/common/rate-limit/fixed-window-memory.storage.js';
import { keyOf, listenFloor, readTable } from './replay.mjs';

// Recorded headers without those Node writes itself.
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const table = await readTable();
for (const entry of table.values())
  entry.headers = Object.entries(entry.headers).filter(([name]) => !NODE_HEADERS.has(name));
const entryOf = (req) => table.get(keyOf(req));

class NotServed extends Error {}
const notServed = new NotServed('not served');

// Decorators applied by hand: this file runs as plain JavaScript.
class Replay {
  answer(req) {
    const entry = entryOf(req);
    if (!entry || entry.status >= 400) throw notServed;
    return entry;
  }
}
const answer = Object.getOwnPropertyDescriptor(Replay.prototype, 'answer');
Req()(Replay.prototype, 'answer', 0);
All('{*path}')(Replay.prototype, 'answer', answer);
Controller()(Replay);

class AnswerHeaders {
  intercept(context, next) {
    const res = context.switchToHttp().getResponse();
    return next.handle().pipe(
      map((entry) => {
        for (const [name, value] of entry.headers) res.setHeader(name, value);
        res.status(entry.status);
        return entry.status === 304 ? undefined : entry.body;
      }),
    );
  }
}
Injectable()(AnswerHeaders);

class Errors {
  catch(_exception, host) {
    const http = host.switchToHttp();
    const res = http.getResponse();
    const entry = entryOf(http.getRequest());
    if (!entry) return void res.status(404).end();
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.status(entry.status).end(entry.body);
  }
}
Catch()(Errors);
Injectable()(Errors);

const registry = new Registry();
const labelNames = ['method', 'route', 'status'];
const requests = new Counter({ name: 'http_requests_total', help: 'Requests.', labelNames, registers: [registry] });
const latency = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Latency.',
  labelNames,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});
function metrics(req, res, next) {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const labels = { method: req.method, route: req.route?.path ?? 'unmatched', status: String(res.statusCode) };
    requests.inc(labels);
    latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
}

// Bytes (a recorded body) are the body as they are, as the service's BytesReplyAdapter has it.
class BytesAdapter extends ExpressAdapter {
  reply(res, body, status) {
    if (!(body instanceof Uint8Array)) return super.reply(res, body, status);
    if (status !== undefined) res.status(status);
    return res.end(body);
  }
}

const logger = pino(pino.destination({ dest: 1, sync: false, minLength: 8192 }));
class RulesFloorModule {
  configure(consumer) {
    consumer.apply(metrics).forRoutes('{*path}');
  }
}
Module({
  imports: [
    // A limit too high to trigger, as the service runs in the benchmark; the recorded answers carry
    // the service's RateLimit-* headers, so the guard does not write its own.
    ThrottlerModule.forRoot({
      throttlers: [{ ttl: 60_000, limit: 1_000_000_000 }],
      setHeaders: false,
      storage: new FixedWindowMemoryStorage(),
    }),
    LoggerModule.forRoot({
      pinoHttp: {
        logger,
        serializers: {
          req: (req) => ({ method: req.method, url: req.url }),
          res: (res) => ({ statusCode: res.statusCode }),
        },
      },
    }),
  ],
  controllers: [Replay],
  providers: [
    { provide: APP_GUARD, useClass: ThrottlerGuard },
    { provide: APP_INTERCEPTOR, useClass: AnswerHeaders },
    { provide: APP_FILTER, useClass: Errors },
  ],
})(RulesFloorModule);

const app = await NestFactory.create(RulesFloorModule, new BytesAdapter(), { logger: false, bodyParser: false });
// The port is printed before the first access line: bench.mjs reads it, then discards what follows.
await listenFloor(app);
