import type { RequestListener } from 'node:http';
import parseUrl from 'parseurl';
import { contextOf } from './request/request-context.js';

/**
 * The one step before Express (AppModule lists the whole path). Express's router skips every
 * middleware when the request target yields no path (Node's legacy URL parser reads `//?#@x` as an
 * empty authority) and answers with its bare HTML 404: no headers, no count, no log line. Such a
 * target is marked malformed and given a routable path instead, so Nest's path answers it: counted by
 * the guard, refused with 400 by the interceptor, logged like any request. Nothing is written here.
 */
export function routableTarget(next: RequestListener): RequestListener {
  return (req, res) => {
    if (parseUrl(req)?.pathname == null) {
      contextOf(req).malformedTarget = req.url;
      req.url = '/';
    }
    next(req, res);
  };
}
