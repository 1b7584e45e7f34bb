/** OpenAPI tags, one per area of the API. */
export enum ApiTag {
  Index = 'Index',
  Providers = 'Providers',
  Plans = 'Plans',
  Guides = 'Guides',
  UseCases = 'Use cases',
  Changes = 'Changes',
}
