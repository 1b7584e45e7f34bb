import { toJsonSchema2020, toOpenApi31 } from './openapi-31';

describe('toJsonSchema2020', () => {
  it('turns nullable into a null type', () => {
    expect(toJsonSchema2020({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
  });

  it('turns a nullable reference into anyOf with null', () => {
    expect(toJsonSchema2020({ $ref: '#/components/schemas/X', nullable: true })).toEqual({
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
  });

  it('turns a singular example into examples, keeping explicit examples', () => {
    expect(toJsonSchema2020({ type: 'number', example: 4 })).toEqual({ type: 'number', examples: [4] });
    expect(toJsonSchema2020({ type: 'number', example: 4, examples: [5] })).toEqual({ type: 'number', examples: [5] });
  });

  it('turns boolean exclusive bounds into numbers', () => {
    expect(toJsonSchema2020({ type: 'number', minimum: 0, exclusiveMinimum: true })).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
    });
    expect(toJsonSchema2020({ type: 'number', maximum: 5, exclusiveMaximum: false })).toEqual({
      type: 'number',
      maximum: 5,
    });
  });

  it('rewrites nested properties, items and compositions', () => {
    const schema = toJsonSchema2020({
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string', nullable: true, example: 'x' } } },
      allOf: [{ type: 'object', example: {} }],
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { a: { type: 'array', items: { type: ['string', 'null'], examples: ['x'] } } },
      allOf: [{ type: 'object', examples: [{}] }],
    });
  });
});

describe('toOpenApi31', () => {
  it('sets the version and rewrites component, parameter and response schemas', () => {
    const doc = toOpenApi31({
      openapi: '3.0.0',
      components: { schemas: { A: { type: 'string', nullable: true } } },
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'id', in: 'path', schema: { type: 'string', example: 'a' } }],
            responses: { '200': { content: { 'application/json': { schema: { type: 'integer', example: 1 } } } } },
          },
        },
      },
    });
    expect(doc).toEqual({
      openapi: '3.1.0',
      components: { schemas: { A: { type: ['string', 'null'] } } },
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'id', in: 'path', schema: { type: 'string', examples: ['a'] } }],
            responses: { '200': { content: { 'application/json': { schema: { type: 'integer', examples: [1] } } } } },
          },
        },
      },
    });
  });
});
