/**
 * What every GET of the API also accepts, declared on the operations of the document: the
 * `If-None-Match` request header, and the HEAD form of the operation (Express answers HEAD with the
 * GET route; DocumentResponder and the error filter send the same status and headers with no body).
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parameter component every operation references. */
export const IF_NONE_MATCH = 'IfNoneMatch';

export const IF_NONE_MATCH_PARAMETER = {
  name: 'If-None-Match',
  in: 'header' as const,
  required: false,
  description:
    'The `ETag` of a copy you hold (several may be listed, comma-separated, or `*`). When one matches the current document, the answer is `304` with no body.',
  schema: { type: 'string' },
  example: '"q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6"',
};

/** The operationId of the HEAD form of an operation. */
export const headOperationId = (getOperationId: string) => `${getOperationId}Head`;

/** Adds the `If-None-Match` parameter (by reference) to every GET operation of `paths`. */
export function declareIfNoneMatch(paths: Json): void {
  for (const item of Object.values(paths)) {
    const get = isObject(item) ? item.get : undefined;
    if (!isObject(get)) continue;
    const parameters = Array.isArray(get.parameters) ? get.parameters : [];
    get.parameters = [...parameters, { $ref: `#/components/parameters/${IF_NONE_MATCH}` }];
  }
}

/**
 * Adds beside every GET its HEAD form: the same parameters, statuses and response headers, no body,
 * its own operationId. Call after the GET operations are complete.
 */
export function addHeadOperations(paths: Json): void {
  for (const item of Object.values(paths)) {
    const get = isObject(item) ? item.get : undefined;
    if (!isObject(get) || !isObject(item)) continue;
    const head = structuredClone(get);
    head.operationId = headOperationId(String(get.operationId));
    head.summary = `${String(get.summary)} (headers only)`;
    head.description = `The HEAD form of \`${String(get.operationId)}\`: the same status and headers (\`ETag\`, \`Content-Length\`, rate limit), no body. Checks whether a copy is current, or what a download weighs, without transferring it.`;
    for (const response of Object.values(isObject(head.responses) ? head.responses : {})) {
      if (isObject(response)) delete response.content;
    }
    item.head = head;
  }
}
