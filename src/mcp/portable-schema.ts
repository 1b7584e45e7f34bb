import { z } from 'zod';

type JsonSchema = { [keyword: string]: unknown };

/**
 * A tool's output schema as JSON Schema (draft 2020-12) with every `type` array (zod writes a
 * nullable number as `type: ["number", "null"]`) split into `anyOf` branches of one type each, and
 * every schema that says nothing (`{}`, zod's `unknown`) spelled out as any JSON value. Some model
 * providers map tool schemas onto a dialect with a single `type` and refuse the arrays or untyped
 * values (the MCP Inspector's --strict check). Null stays null: the records are the HTTP
 * contract's, where a null figure means "none or not confirmed", so the fields are not made optional.
 *
 * Published without annotations (`description`, `title`, `examples`): an output schema is what a
 * client validates `structuredContent` against, and clients hand a model the tool's description and
 * input schema, not this; the field descriptions were two fifths of `tools/list`. Each tool's
 * description says what its answer holds, and docs/mcp.md documents the fields. Objects deeper than
 * `levels` are published as objects (see OUTPUT_SCHEMA_LEVELS).
 */
export function portableOutputSchema(schema: z.ZodObject, levels = OUTPUT_SCHEMA_LEVELS): JsonSchema {
  // No `$schema`: draft 2020-12 is MCP's default dialect for tool schemas (revision 2025-11-25), so saying it ten times in tools/list says nothing.
  const {
    $defs,
    $schema: _dialect,
    ...root
  } = withoutTypeArrays(
    withoutAnnotations(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })),
  ) as JsonSchema;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const used = new Map<string, number>();
  const out = toLevels(root, levels, defs, used) as JsonSchema;
  // A definition is published at the most levels any of its uses keeps; one it references joins in turn.
  const published: Record<string, unknown> = {};
  for (let pending = [...used]; pending.length > 0; pending = [...used].filter(([name]) => !(name in published)))
    for (const [name, at] of pending) published[name] = toLevels(defs[name], at, defs, used);
  return Object.keys(published).length > 0 ? { ...out, $defs: published } : out;
}

/**
 * How many levels of objects an output schema spells out: the answer's fields, and the fields of the
 * objects (or list items) among them. A deeper object is published as `{"type": "object"}`: the
 * provider record's plans, sources and add-ons in full were a quarter of `tools/list`, and a model
 * reads the answer, not its schema; docs/mcp.md documents every field.
 */
export const OUTPUT_SCHEMA_LEVELS = 2;

/**
 * `schema` with objects below `levels` levels reduced to `{"type": "object"}`, without the bounds that
 * exclude nothing and without `additionalProperties: false`. A `$ref` into `defs` that survives the cut
 * stays a reference, and `used` records the levels its definition needs.
 */
export function toLevels(
  schema: unknown,
  levels: number,
  defs: Record<string, JsonSchema>,
  used: Map<string, number>,
): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const node = schema as JsonSchema;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/$defs/', '');
    if (levels <= 0 && defs[name]?.type === 'object') return { type: 'object' };
    used.set(name, Math.max(used.get(name) ?? 0, levels));
    return node;
  }
  if (node.type === 'object' && levels <= 0) return { type: 'object' };
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(node)) {
    // zod bounds every integer by the safe-integer range: a bound that excludes nothing a number can hold.
    if ((key === 'minimum' || key === 'maximum') && Math.abs(child as number) === Number.MAX_SAFE_INTEGER) continue;
    // An answer may gain fields (the API is additive-only): a client that validates must not refuse them.
    if (key === 'additionalProperties' && child === false) continue;
    // JSON object keys are strings: a record's `propertyNames: {type: string}` excludes nothing.
    if (key === 'propertyNames' && isStringSchema(child)) continue;
    if (key === 'properties') out[key] = mapValues(child, (c) => toLevels(c, levels - 1, defs, used));
    else if (key === 'additionalProperties') out[key] = toLevels(child, levels - 1, defs, used);
    else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      out[key] = Array.isArray(child)
        ? child.map((c) => toLevels(c, levels, defs, used))
        : toLevels(child, levels, defs, used);
    else out[key] = child;
  }
  return out;
}

/** A schema without annotation keywords at any depth; the names in `properties` and `$defs` are kept. */
export function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'properties' || key === '$defs') out[key] = mapValues(child, withoutAnnotations);
    else if (!ANNOTATIONS.has(key)) out[key] = withoutAnnotations(child);
  }
  return out;
}

/** Any JSON value, one type per branch: what `{}` allows, said so a reader of the schema sees it. */
const ANY_JSON_VALUE = ['string', 'number', 'boolean', 'null', 'array', 'object'].map((type) => ({ type }));

/** Keywords that describe a schema without constraining it. */
const ANNOTATIONS = new Set(['description', 'title', 'examples']);

/**
 * `value` with each `type: [a, b]` rewritten as `anyOf: [{type: a}, {type: b}]`, and each property
 * or item schema without a constraint as an `anyOf` of every JSON type, at any depth.
 */
export function withoutTypeArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypeArrays);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'properties' || key === '$defs')
      out[key] = mapValues(child, (schema) => withoutTypeArrays(spelledOut(schema)));
    else out[key] = withoutTypeArrays(key === 'items' ? spelledOut(child) : child);
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { anyOf: (type as string[]).map((one) => ({ type: one })), ...rest };
  }
  return out;
}

/** A schema with no constraint (only annotations, if any) as an explicit `anyOf` of every JSON type. */
const spelledOut = (schema: unknown): unknown =>
  schema !== null &&
  typeof schema === 'object' &&
  !Array.isArray(schema) &&
  Object.keys(schema).every((key) => ANNOTATIONS.has(key))
    ? { anyOf: ANY_JSON_VALUE, ...schema }
    : schema;

const isStringSchema = (schema: unknown) =>
  typeof schema === 'object' &&
  schema !== null &&
  Object.keys(schema).join() === 'type' &&
  (schema as JsonSchema).type === 'string';

const mapValues = (record: unknown, map: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, map(v)]));
