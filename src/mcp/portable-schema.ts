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
 * description says what its answer holds, and docs/mcp.md documents the fields.
 */
export function portableOutputSchema(schema: z.ZodObject): JsonSchema {
  return withoutTypeArrays(
    withoutAnnotations(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })),
  ) as JsonSchema;
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

const mapValues = (record: unknown, map: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(record as Record<string, unknown>).map(([k, v]) => [k, map(v)]));
