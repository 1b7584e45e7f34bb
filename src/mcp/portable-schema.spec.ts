import { z } from 'zod';
import { portableOutputSchema, withoutTypeArrays } from './portable-schema';

describe(portableOutputSchema.name, () => {
  it('splits a nullable number into anyOf branches of one type each, keeping the description', () => {
    const schema = portableOutputSchema(z.object({ price: z.number().nullable().describe('Monthly price.'), name: z.string() }));
    expect(JSON.stringify(schema)).not.toContain('"type":[');
    expect((schema.properties as Record<string, unknown>).price).toMatchObject({ anyOf: [{ type: 'number' }, { type: 'null' }], description: 'Monthly price.' });
  });

  it('spells out a property or item that allows anything as every JSON type, and leaves other empty objects alone', () => {
    const schema = portableOutputSchema(z.object({ oldValue: z.unknown(), list: z.array(z.unknown()) }));
    const properties = schema.properties as Record<string, { anyOf?: unknown[]; items?: { anyOf?: unknown[] } }>;
    expect(properties.oldValue.anyOf).toHaveLength(6);
    expect(properties.list.items!.anyOf).toHaveLength(6);
    expect(withoutTypeArrays({ type: 'object', default: {} })).toEqual({ type: 'object', default: {} });
  });

  it('rewrites type arrays at any depth, and leaves a property named "type" alone', () => {
    const input = { type: 'object', properties: { type: { type: ['string', 'null'] }, list: { type: 'array', items: { type: ['integer', 'null'], minimum: 0 } } } };
    expect(withoutTypeArrays(input)).toEqual({
      type: 'object',
      properties: {
        type: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }], minimum: 0 } },
      },
    });
  });
});
