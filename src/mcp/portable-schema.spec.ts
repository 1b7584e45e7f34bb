import { z } from 'zod';
import { portableOutputSchema, withoutTypeArrays } from './portable-schema';

describe(portableOutputSchema.name, () => {
  it('splits a nullable number into anyOf branches of one type each, and publishes no annotations', () => {
    const schema = portableOutputSchema(
      z.object({ price: z.number().nullable().describe('Monthly price.'), name: z.string() }).describe('A plan.'),
    );
    expect(JSON.stringify(schema)).not.toContain('"type":[');
    expect((schema.properties as Record<string, unknown>).price).toEqual({
      anyOf: [{ type: 'number' }, { type: 'null' }],
    });
    expect(JSON.stringify(schema)).not.toContain('Monthly price');
    expect(schema.description).toBeUndefined();
  });

  it('keeps properties named like annotations', () => {
    const schema = portableOutputSchema(z.object({ description: z.string().describe('The text.'), title: z.string() }));
    expect(Object.keys(schema.properties as object)).toEqual(['description', 'title']);
    expect(schema.required).toEqual(['description', 'title']);
  });

  it('spells out a property or item that allows anything as every JSON type, and leaves other empty objects alone', () => {
    const schema = portableOutputSchema(z.object({ oldValue: z.unknown(), list: z.array(z.unknown()) }));
    const properties = schema.properties as Record<string, { anyOf?: unknown[]; items?: { anyOf?: unknown[] } }>;
    expect(properties.oldValue.anyOf).toHaveLength(6);
    expect(properties.list.items!.anyOf).toHaveLength(6);
    expect(withoutTypeArrays({ type: 'object', default: {} })).toEqual({ type: 'object', default: {} });
  });

  it('rewrites type arrays at any depth, and leaves a property named "type" alone', () => {
    const input = {
      type: 'object',
      properties: {
        type: { type: ['string', 'null'] },
        list: { type: 'array', items: { type: ['integer', 'null'], minimum: 0 } },
      },
    };
    expect(withoutTypeArrays(input)).toEqual({
      type: 'object',
      properties: {
        type: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }], minimum: 0 } },
      },
    });
  });
});
