import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { BEST_BUDGET } from '../dataset/provider-rules.js';

type Json = Record<string, any>;

/**
 * The fixed vocabularies of a dataset version, declared in its OpenAPI document as enums: the provider
 * ids (the `providerId` path parameter, with an example, and every field that names a current
 * provider), the use-case slugs (`UseCase.slug` and the `bestFor` lists, which the validator holds to
 * them) and the known `recommendations` keys. They come from the snapshot the document is built for,
 * never written a second time, so a dataset that adds a provider publishes a document that names it.
 */
export function applyDatasetVocabularies(doc: Json, snapshot: DatasetSnapshot): void {
  const providerIds = snapshot.providers.map((p) => p.id);
  const useCaseSlugs = snapshot.useCases.map((u) => u.slug);
  const schemas: Json = doc.components.schemas;
  const providerId = { type: 'string', enum: providerIds };

  Object.assign(property(schemas, 'Provider', 'id'), providerId);
  Object.assign(property(schemas, 'PlanTableRow', 'providerId'), providerId);
  Object.assign(property(schemas, 'UseCaseProvider', 'id'), providerId);
  Object.assign(property(schemas, 'UseCase', 'slug'), { type: 'string', enum: useCaseSlugs });
  property(schemas, 'Provider', 'bestFor').items = {
    type: 'string',
    enum: useCaseSlugs,
    description: 'A use-case slug (`UseCase.slug`).',
  };

  const recommendations = property(schemas, 'ProviderList', 'recommendations');
  const keys = Object.keys(snapshot.recommendations);
  recommendations.properties = Object.fromEntries(
    keys.map((key) => [
      key,
      {
        ...providerId,
        description:
          key === BEST_BUDGET
            ? 'Derived when the dataset loads: the provider with the cheapest plan sold without commitment, in USD.'
            : `The provider picked as \`${key}\`.`,
      },
    ]),
  );
  recommendations.required = keys;
  recommendations.examples = [snapshot.recommendations];

  for (const item of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(item)) {
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'path' || parameter.name !== 'providerId') continue;
        parameter.schema = { ...providerId };
        parameter.example = providerIds[0];
      }
    }
  }
}

/** A property schema of a component; throws when a DTO rename left this file behind. */
function property(schemas: Json, schema: string, name: string): Json {
  const found = schemas[schema]?.properties?.[name];
  if (!found) throw new Error(`OpenAPI: no property ${schema}.${name} to declare a vocabulary on`);
  return found;
}
