import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import { GUIDE_TYPES, type GuideType } from '../dataset/dto/guide.dto.js';
import type { JsonDocument } from '../dataset/json-document.js';
import { MAX_QUERY_LENGTH, SearchIndex } from '../search/search-index.js';
import { plainText, snippet } from '../search/snippet.js';
import type { GuideList } from './dto/guide-list.dto.js';
import { absoluteSiteLinks } from './absolute-links.js';
import { buildGuideList, guideMarkdownPath, guidePath } from './guide-documents.js';
import type { GuideChunk, GuideSearchResult, IndexedGuide } from './guide-search.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_CHUNK_CHARS = 20_000;
export const MAX_CHUNK_CHARS = 100_000;

interface GuideViews {
  list: JsonDocument<GuideList>;
  bySlug: ReadonlyMap<string, IndexedGuide>;
  search: SearchIndex<IndexedGuide>;
  slugs: SearchIndex<IndexedGuide>;
}

/** Reads and searches guides; shared by HTTP and MCP. */
@Injectable()
export class GuidesService {
  private readonly views: DatasetView<GuideViews>;

  constructor(
    dataset: DatasetService,
    private readonly config: AppConfig,
  ) {
    this.views = dataset.view((snapshot) => {
      const indexed = snapshot.guides.map((entry) => ({
        entry,
        text: plainText(entry.markdown),
        absoluteMarkdown: absoluteSiteLinks(entry.markdown, config.publicBaseUrl),
        authorName: snapshot.authorsById.get(entry.author)!.name,
      }));
      const id = (g: IndexedGuide) => g.entry.slug;
      return {
        list: buildGuideList(snapshot, config),
        bySlug: new Map(indexed.map((g) => [g.entry.slug, g])),
        search: new SearchIndex(indexed, {
          id,
          fields: {
            title: { text: (g) => g.entry.title, boost: 4 },
            keywords: { text: (g) => g.entry.keywords.join(' '), boost: 3 },
            description: { text: (g) => g.entry.description, boost: 2 },
            body: { text: (g) => g.text, boost: 1 },
          },
        }),
        slugs: new SearchIndex(indexed, {
          id,
          fields: { slug: { text: (g) => g.entry.slug.replace(/-/g, ' '), boost: 1 } },
        }),
      };
    });
  }

  /** The guide index, newest first. */
  list(): JsonDocument<GuideList> {
    return this.views.get().list;
  }

  /**
   * Guides and provider reviews matching `query` in title, keywords, description or body, best
   * first, with prefix and typo tolerance and a snippet around the best match.
   */
  search(query: string, options: { type?: GuideType; limit?: number } = {}): GuideSearchResult[] {
    const text = query.trim();
    if (text.length === 0)
      throw new InvalidArgumentError(
        'query',
        'The query is empty: pass a few words, e.g. "wireguard vpn" or "hetzner vs digitalocean".',
      );
    if (text.length > MAX_QUERY_LENGTH) {
      throw new InvalidArgumentError(
        'query',
        `The query is ${text.length} characters long; keep it to ${MAX_QUERY_LENGTH} (a few keywords work best).`,
      );
    }
    if (options.type !== undefined && !GUIDE_TYPES.includes(options.type)) {
      throw new InvalidArgumentError('type', `Unknown guide type; use one of: ${GUIDE_TYPES.join(', ')}.`);
    }
    const { search, bySlug } = this.views.get();
    const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
    const accept = options.type ? (slug: string) => bySlug.get(slug)?.entry.type === options.type : undefined;
    return search
      .search(text, accept)
      .slice(0, limit)
      .map((hit) => {
        const { entry, text: body } = bySlug.get(hit.id)!;
        return {
          slug: entry.slug,
          title: entry.title,
          type: entry.type,
          description: entry.description,
          url: this.config.url(guidePath(entry.slug)),
          markdownUrl: this.config.url(guideMarkdownPath(entry.slug)),
          score: Math.round(hit.score * 1000) / 1000,
          snippet: snippet(body, hit.terms),
        };
      });
  }

  /**
   * A chunk of a guide's markdown (links to the site made absolute) from `offset`, at most
   * `maxChars` long, with its dates and author; throws NotFoundError with the closest slugs.
   */
  read(slug: string, offset = 0, maxChars = DEFAULT_CHUNK_CHARS): GuideChunk {
    const guide = this.views.get().bySlug.get(slug);
    if (!guide) throw new NotFoundError('guide', slug, [], this.closest(slug), 'slug');
    const markdown = guide.absoluteMarkdown;
    const start = Math.min(Math.max(0, Math.trunc(offset)), markdown.length);
    const size = Math.min(Math.max(1, Math.trunc(maxChars)), MAX_CHUNK_CHARS);
    const end = Math.min(markdown.length, start + size);
    const { entry } = guide;
    return {
      slug,
      title: entry.title,
      url: this.config.url(guidePath(slug)),
      published: entry.published,
      updated: entry.updated ?? entry.published,
      author: guide.authorName,
      markdown: markdown.slice(start, end),
      totalChars: markdown.length,
      nextOffset: end < markdown.length ? end : null,
    };
  }

  /** Every guide slug, newest first. */
  slugs(): string[] {
    return [...this.views.get().bySlug.keys()];
  }

  /** Slugs that look like `text`, best first. */
  closest(text: string, limit = 5): string[] {
    const query = text.slice(0, MAX_QUERY_LENGTH).replace(/[-_/.]+/g, ' ');
    return this.views
      .get()
      .slugs.search(query, undefined, { fuzzy: 0.4 })
      .slice(0, limit)
      .map((h) => h.id);
  }

  /** One guide's entry and markdown, or undefined. */
  entry(slug: string): IndexedGuide['entry'] | undefined {
    return this.views.get().bySlug.get(slug)?.entry;
  }
}
