import MiniSearch, { type SearchResult } from 'minisearch';

/** The longest query accepted; longer ones are refused before they reach the index. */
export const MAX_QUERY_LENGTH = 200;

export interface SearchHit {
  id: string;
  score: number;
  /** Index terms the query matched (after prefix and typo expansion). */
  terms: string[];
}

/**
 * Full-text search over a fixed set of documents with MiniSearch: BM25 ranking, per-field boosts,
 * prefix matching ("wire" finds "wireguard") and typo tolerance ("wiregard"). Built once per dataset
 * version; a query never touches anything but the in-memory index, and no pattern is built from it.
 */
export class SearchIndex<T> {
  private readonly index: MiniSearch<T>;

  constructor(
    documents: readonly T[],
    options: { id: (doc: T) => string; fields: Record<string, { text: (doc: T) => string; boost: number }> },
  ) {
    const fields = Object.keys(options.fields);
    this.index = new MiniSearch<T>({
      fields,
      idField: '__id',
      extractField: (doc, field) => (field === '__id' ? options.id(doc) : options.fields[field].text(doc)),
      searchOptions: {
        boost: Object.fromEntries(fields.map((f) => [f, options.fields[f].boost])),
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.index.addAll([...documents]);
  }

  /** Documents matching `query`, best first; `accept` filters by id. */
  search(query: string, accept?: (id: string) => boolean, options: { fuzzy?: number } = {}): SearchHit[] {
    const results: SearchResult[] = this.index.search(query.slice(0, MAX_QUERY_LENGTH), {
      filter: accept ? (r) => accept(String(r.id)) : undefined,
      ...(options.fuzzy !== undefined ? { fuzzy: options.fuzzy } : {}),
    });
    return results.map((r) => ({ id: String(r.id), score: r.score, terms: r.terms }));
  }
}
