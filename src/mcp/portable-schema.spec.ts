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

describe('output schema levels', () => {
  const source = z.object({ url: z.string(), retrievedAt: z.string() }).meta({ id: 'Src' });
  const answer = z.object({
    count: z.number().int(),
    plans: z.array(z.object({ name: z.string(), source, detail: z.object({ deep: z.object({ x: z.string() }) }) })),
    first: source,
    second: source,
  });

  it("spells out the answer's fields and its items' fields, and publishes a deeper object as an object", () => {
    const schema = portableOutputSchema(answer) as any;
    const plan = schema.properties.plans.items;
    expect(Object.keys(plan.properties)).toEqual(['name', 'source', 'detail']);
    expect(plan.properties.source).toEqual({ type: 'object' });
    expect(plan.properties.detail).toEqual({ type: 'object' });
    expect(schema.properties.count).toEqual({ type: 'integer' });
    expect(JSON.stringify(schema)).not.toContain('additionalProperties');
  });

  it('keeps a definition used where it is spelled out under $defs, once, and references it', () => {
    const schema = portableOutputSchema(answer) as any;
    expect(schema.properties.first).toEqual({ $ref: '#/$defs/Src' });
    expect(schema.properties.second).toEqual({ $ref: '#/$defs/Src' });
    expect(Object.keys(schema.$defs)).toEqual(['Src']);
    expect(schema.$defs.Src.properties.url).toEqual({ type: 'string' });
  });

  it('publishes more levels when asked', () => {
    const schema = portableOutputSchema(answer, 3) as any;
    expect(schema.properties.plans.items.properties.source).toEqual({ $ref: '#/$defs/Src' });
    expect(schema.properties.plans.items.properties.detail.properties.deep).toEqual({ type: 'object' });
  });
});
