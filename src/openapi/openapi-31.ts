/**
 * `@nestjs/swagger` writes OpenAPI 3.0 idioms. These functions rewrite a generated document into
 * valid OpenAPI 3.1 (JSON Schema 2020-12): `nullable` becomes a `null` type, a schema's singular
 * `example` becomes `examples`, boolean exclusive bounds become numeric ones.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rewrites one JSON Schema (and every schema inside it) in place. */
export function toJsonSchema2020(schema: Json): Json {
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    else if (typeof schema.$ref === 'string') {
      const ref = schema.$ref;
      delete schema.$ref;
      schema.anyOf = [{ $ref: ref }, { type: 'null' }];
    }
  } else if (schema.nullable === false) {
    delete schema.nullable;
  }
  if ('example' in schema) {
    if (!('examples' in schema)) schema.examples = [schema.example];
    delete schema.example;
  }
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const flag = `exclusive${bound}`;
    const limit = bound.toLowerCase();
    if (schema[flag] === true) {
      schema[flag] = schema[limit];
      delete schema[limit];
    } else if (schema[flag] === false) {
      delete schema[flag];
    }
  }
  // A $ref with siblings is fine in 3.1, but Nest adds `allOf: [{$ref}]` wrappers; leave those.
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) {
    if (isObject(schema[key])) toJsonSchema2020(schema[key]);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(schema[key])) (schema[key] as unknown[]).filter(isObject).forEach(toJsonSchema2020);
  }
  if (isObject(schema.properties)) Object.values(schema.properties).filter(isObject).forEach(toJsonSchema2020);
  return schema;
}

/** Rewrites every schema of a document: components, parameters, request and response bodies, headers. */
export function toOpenApi31(doc: Json): Json {
  doc.openapi = '3.1.0';
  const components = isObject(doc.components) ? doc.components : {};
  for (const schema of Object.values(isObject(components.schemas) ? components.schemas : {})) {
    if (isObject(schema)) toJsonSchema2020(schema);
  }
  const withSchema = (holder: unknown) => {
    if (isObject(holder) && isObject(holder.schema)) toJsonSchema2020(holder.schema);
  };
  const contentSchemas = (holder: unknown) => {
    if (isObject(holder) && isObject(holder.content)) Object.values(holder.content).forEach(withSchema);
  };
  for (const header of Object.values(isObject(components.headers) ? components.headers : {})) withSchema(header);
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue;
      (Array.isArray(op.parameters) ? op.parameters : []).forEach(withSchema);
      contentSchemas(op.requestBody);
      for (const response of Object.values(isObject(op.responses) ? op.responses : {})) {
        contentSchemas(response);
        if (isObject(response) && isObject(response.headers)) Object.values(response.headers).forEach(withSchema);
      }
    }
  }
  return doc;
}
