// The framework floor: the same table of recorded responses as baseline-server.mjs, answered by a
// minimal NestJS application on the Express platform (one controller, no middleware, guard,
// interceptor, filter, logs or metrics). Its ratio to the bare server is what Nest and Express cost
// on their own, a bound no row of the service can pass. Started by bench.mjs with the table on stdin.
import 'reflect-metadata';
import { All, Controller, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { keyOf, listenFloor, readTable } from './replay.mjs';

const table = await readTable();

class Replay {
  answer(req, res) {
    const entry = table.get(keyOf(req));
    if (!entry) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(entry.status, entry.headers);
    res.end(entry.body);
  }
}
// Decorators applied by hand: this file runs as plain JavaScript.
const answer = Object.getOwnPropertyDescriptor(Replay.prototype, 'answer');
Req()(Replay.prototype, 'answer', 0);
Res()(Replay.prototype, 'answer', 1);
All('{*path}')(Replay.prototype, 'answer', answer);
Controller()(Replay);
class FloorModule {}
Module({ controllers: [Replay] })(FloorModule);

const app = await NestFactory.create(FloorModule, { logger: false, bodyParser: false });
await listenFloor(app);
