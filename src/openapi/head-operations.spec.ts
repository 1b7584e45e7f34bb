import { addHeadOperations, declareIfNoneMatch } from './head-operations.js';

describe('addHeadOperations', () => {
  it('adds beside each GET a HEAD with its own operationId, the same parameters and headers, and no body', () => {
    const paths: Record<string, any> = {
      '/x': {
        get: {
          operationId: 'getX',
          summary: 'Get x',
          parameters: [{ name: 'id', in: 'path' }],
          responses: {
            '200': { description: 'ok', headers: { ETag: { $ref: '#/e' } }, content: { 'application/json': {} } },
            '404': { description: 'no', content: {} },
          },
        },
      },
    };
    declareIfNoneMatch(paths);
    addHeadOperations(paths);
    const { get, head } = paths['/x'];
    expect(head.operationId).toBe('getXHead');
    expect(head.parameters).toEqual([{ name: 'id', in: 'path' }, { $ref: '#/components/parameters/IfNoneMatch' }]);
    expect(head.responses).toEqual({
      '200': { description: 'ok', headers: { ETag: { $ref: '#/e' } } },
      '404': { description: 'no' },
    });
    expect(get.responses['200'].content).toEqual({ 'application/json': {} });
    expect(head.description).toContain('`getX`');
  });
});
