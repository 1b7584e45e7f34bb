import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/**
 * Validates one plain record against its DTO class and returns it (as plain data), or pushes one
 * message per invalid field and returns undefined. Messages read `<file>: <record>.<field>: <reason>`,
 * e.g. `data/providers.json: providers[2] (vultr).plans[1].price: must be a number`, or
 * `<file>: <field>: <reason>` for a file that is one record.
 */
export function validateRecord<T extends object>(
  cls: ClassConstructor<T>,
  value: unknown,
  file: string,
  record: string | undefined,
  problems: string[],
): T | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${file}: ${record ?? 'the file'}: must be an object`);
    return undefined;
  }
  const instance = plainToInstance(cls, value);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  // Valid means the plain value holds exactly the declared fields: serve that plain data, not class instances.
  if (errors.length === 0) return structuredClone(value) as T;
  for (const [path, reason] of flatten(errors, record ?? '')) problems.push(`${file}: ${path}: ${reason}`);
  return undefined;
}

const TYPE_CHECKS = new Set(['isArray', 'isNumber', 'isInt', 'isString', 'isBoolean', 'nestedValidation']);

function flatten(errors: ValidationError[], prefix: string): [string, string][] {
  const lines: [string, string][] = [];
  for (const error of errors) {
    const path = /^\d+$/.test(error.property)
      ? `${prefix}[${error.property}]`
      : prefix
        ? `${prefix}.${error.property}`
        : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // One line per field: the type check when it failed (a string price is "not a number", not "less than 0").
      const [kind, message] = constraints.find(([k]) => TYPE_CHECKS.has(k)) ?? constraints[0];
      lines.push([path, reason(kind, message, error)]);
    }
    if (error.children?.length) lines.push(...flatten(error.children, path));
  }
  return lines;
}

function reason(kind: string, message: string, error: ValidationError): string {
  if (kind === 'whitelistValidation') return 'is not a known field';
  if (error.value === undefined) return 'is required';
  if (kind === 'nestedValidation') return 'must be an object';
  let text = message.replace(/ conforming to the specified constraints$/, '');
  const each = `each value in ${error.property} `;
  if (text.startsWith(each)) text = `each value ${text.slice(each.length)}`;
  else if (text.startsWith(`${error.property} `)) text = text.slice(error.property.length + 1);
  return text.replace(/^should /, 'must ').replace(/^each value should /, 'each value must ');
}
