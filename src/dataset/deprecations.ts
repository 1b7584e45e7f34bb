import type { Deprecation } from './dto/meta.dto.js';

/** Records of each schema a document carries, e.g. `{ Provider: [...], Plan: [...] }`. */
export type CarriedRecords = Partial<Record<string, readonly object[]>>;

/** The declared deprecations whose field is present in at least one carried record. */
export function carriedDeprecations(declared: readonly Deprecation[], carried: CarriedRecords): Deprecation[] {
  return declared.filter((d) => {
    const [schema, property] = d.field.split('.');
    return (carried[schema] ?? []).some((record) => Object.hasOwn(record, property));
  });
}
