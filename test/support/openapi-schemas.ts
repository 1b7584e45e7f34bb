import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

/** Validates bodies against the response schemas of a live OpenAPI 3.1 document with ajv (JSON Schema 2020-12). */
export class OpenApiSchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi.json' });
  }

  /** The operation object with this operationId, and its path. */
  operation(operationId: string): { path: string; op: Json } {
    for (const [path, item] of Object.entries<Json>(this.doc.paths)) {
      for (const op of Object.values<Json>(item)) if (op.operationId === operationId) return { path, op };
    }
    throw new Error(`no operation ${operationId}`);
  }

  /** Errors of `body` against the schema of `operationId`'s `status` response; empty when valid. */
  errors(operationId: string, status: number, body: unknown): string[] {
    const response = this.operation(operationId).op.responses[String(status)];
    if (!response) return [`no ${status} response documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [`no JSON schema for ${status}`];
    const ref = schema.$ref ? `openapi.json${schema.$ref}` : undefined;
    const validate = ref ? this.ajv.getSchema(ref) : this.ajv.compile(schema);
    if (!validate) return [`cannot resolve ${schema.$ref}`];
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }
}
