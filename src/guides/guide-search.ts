import type { GuideEntry } from '../dataset/dataset-snapshot.js';
import type { GuideType } from '../dataset/dto/guide.dto.js';

/** One search result. */
export interface GuideSearchResult {
  slug: string;
  title: string;
  type: GuideType;
  description: string;
  url: string;
  markdownUrl: string;
  /** Relevance (BM25 with field boosts); only comparable within one answer. */
  score: number;
  /** A passage around the best match. */
  snippet: string;
}

/** A chunk of a guide's markdown, for agents: links to the site are absolute. */
export interface GuideChunk {
  slug: string;
  title: string;
  url: string;
  /** Day of publication. */
  published: string;
  /** Day of the last substantive change (`published` when there was none). */
  updated: string;
  /** The author's display name. */
  author: string;
  markdown: string;
  /** Length of the whole markdown, in characters. */
  totalChars: number;
  /** Where the next chunk starts, or null after the last one. */
  nextOffset: number | null;
}

/** What the index holds per guide. */
export interface IndexedGuide {
  entry: GuideEntry;
  /** The body as plain text, for snippets. */
  text: string;
  /** The body with links to the site made absolute (absolute-links.ts): what agents read. */
  absoluteMarkdown: string;
  /** The author's display name. */
  authorName: string;
}
