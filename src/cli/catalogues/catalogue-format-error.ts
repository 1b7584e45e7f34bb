/** The cause of a catalogue that cannot be read as the adapter expects (malformed, empty, an unknown unit). */
export class CatalogueFormatError extends Error {
  override name = 'CatalogueFormatError';
}
