import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A tool call (or prompts/get) written in the documentation: the tool or prompt and its arguments. */
export interface DocumentedCall {
  tool: string;
  args: Record<string, unknown>;
  where: string;
}

const readDoc = (path: string) => readFileSync(join(__dirname, '..', '..', path), 'utf8');

/**
 * Every tool call docs/mcp.md and the README show: "`tool` with `{...}`" before an example answer,
 * and the curl examples' `"name":"tool","arguments":{...}`.
 */
export function documentedCalls(): DocumentedCall[] {
  const calls: DocumentedCall[] = [];
  for (const path of ['docs/mcp.md', 'README.md']) {
    const text = readDoc(path);
    for (const m of text.matchAll(/`([a-z_]+)` with `(\{.*?\})`/g))
      calls.push({ tool: m[1], args: JSON.parse(m[2]), where: `${path}: ${m[0]}` });
    for (const m of text.matchAll(/"name":"([a-z_]+)","arguments":(\{[^}]*\})/g))
      calls.push({ tool: m[1], args: JSON.parse(m[2]), where: `${path}: ${m[0]}` });
  }
  return calls;
}

/** One example value of one parameter, as a tool's published description of it gives it. */
export interface DocumentedValue {
  tool: string;
  parameter: string;
  value: unknown;
  description: string;
}

type PropertySchema = {
  type?: string | string[];
  description?: string;
  items?: PropertySchema;
  anyOf?: PropertySchema[];
};

/**
 * The example values a parameter's description names (what a model reads and copies): for a
 * string, each double-quoted word ("NVMe", "hetzner-review"); for a number, each number after
 * "e.g."; for an array, the JSON array after "e.g.".
 */
export function documentedValues(
  tools: { name: string; inputSchema: { properties?: Record<string, PropertySchema> } }[],
): DocumentedValue[] {
  const values: DocumentedValue[] = [];
  for (const tool of tools) {
    for (const [parameter, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      const description = schema.description ?? '';
      const add = (value: unknown) => values.push({ tool: tool.name, parameter, value, description });
      const type = schema.type ?? schema.anyOf?.map((s) => s.type).find((t) => t !== 'null');
      if (type === 'string') for (const m of description.matchAll(/"([^"<>]+)"/g)) add(m[1]);
      if (type === 'number' || type === 'integer')
        for (const m of description.matchAll(/e\.g\. (\d+(?:\.\d+)?(?: or \d+(?:\.\d+)?)*)/g))
          for (const n of m[1].split(' or ')) add(Number(n));
      if (type === 'array') for (const m of description.matchAll(/e\.g\. (\[[^\]]*\])/g)) add(JSON.parse(m[1]));
    }
  }
  return values;
}
