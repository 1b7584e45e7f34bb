import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { LazyJsonSchemaValidator } from './lazy-schema-validator';

describe(LazyJsonSchemaValidator.name, () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as JsonSchemaType;

  it('compiles a schema on its first validation, once, and validates as the wrapped provider does', () => {
    const ajv = new AjvJsonSchemaValidator();
    const compiled: JsonSchemaType[] = [];
    const counting: jsonSchemaValidator = {
      getValidator: (s) => {
        compiled.push(s);
        return ajv.getValidator(s);
      },
    };
    const validate = new LazyJsonSchemaValidator(counting).getValidator<{ n: number }>(schema);
    expect(compiled).toEqual([]);
    expect(validate({ n: 3 })).toEqual(ajv.getValidator(schema)({ n: 3 }));
    const refused = validate({ n: 'three' });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toBe(ajv.getValidator(schema)({ n: 'three' }).errorMessage);
    expect(compiled).toEqual([schema]);
  });
});
