import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

/**
 * A JSON Schema validator provider (the SDK's `jsonSchemaValidator` extension point) that compiles a
 * schema on its first validation instead of when the tool is registered, so a start does not compile
 * every published output schema: a schema no call has used yet is never compiled. Validation itself is
 * the wrapped provider's.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  constructor(private readonly inner: jsonSchemaValidator) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled: JsonSchemaValidator<T> | undefined;
    return (input) => (compiled ??= this.inner.getValidator<T>(schema))(input);
  }
}
