import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/**
 * Validates one plain record against its DTO class and returns the typed instance, or pushes one
 * message per invalid field (`<where>.<field path>: <reason>`) and returns undefined.
 */
export function validateRecord<T extends object>(
  cls: ClassConstructor<T>,
  value: unknown,
  where: string,
  problems: string[],
): T | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${where}: must be an object`);
    return undefined;
  }
  const instance = plainToInstance(cls, value);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  if (errors.length === 0) return instance;
  for (const line of flatten(errors, where)) problems.push(line);
  return undefined;
}

const TYPE_CHECKS = new Set(['isArray', 'isNumber', 'isInt', 'isString', 'isBoolean', 'nestedValidation']);

function flatten(errors: ValidationError[], prefix: string): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = /^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // One line per field: the type check when it failed (a string price is "not a number", not "less than 0").
      const [kind, message] = constraints.find(([k]) => TYPE_CHECKS.has(k)) ?? constraints[0];
      lines.push(`${path}: ${reason(kind, message, error)}`);
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
