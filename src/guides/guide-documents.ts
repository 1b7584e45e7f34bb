import type { AppConfig } from '../config/app-config.js';
import { carriedDeprecations } from '../dataset/deprecations.js';
import type { DatasetSnapshot, GuideEntry } from '../dataset/dataset-snapshot.js';
import { checkedSystems, type Guide } from '../dataset/dto/guide.dto.js';
import { JsonDocument } from '../dataset/json-document.js';
import type { GuideList } from './dto/guide-list.dto.js';

/** Path of a guide's HTML page. */
export const guidePath = (slug: string) => `/guides/${slug}`;
/** Path of a guide's raw markdown. */
export const guideMarkdownPath = (slug: string) => `/guides/${slug}.md`;

/** A guide's index entry: front matter, author, reading figures and absolute URLs. */
export function toGuide(entry: GuideEntry, snapshot: DatasetSnapshot, config: AppConfig): Guide {
  return {
    slug: entry.slug,
    title: entry.title,
    description: entry.description,
    type: entry.type,
    keywords: entry.keywords,
    published: entry.published,
    updated: entry.updated ?? entry.published,
    author: entry.author,
    authorName: snapshot.authorsById.get(entry.author)!.name,
    wordCount: entry.wordCount,
    readTimeMinutes: entry.readTimeMinutes,
    url: config.url(guidePath(entry.slug)),
    markdownUrl: config.url(guideMarkdownPath(entry.slug)),
    ...(entry.verifiedWith === undefined ? {} : { verifiedWith: entry.verifiedWith }),
    ...(entry.writtenFor === undefined ? {} : { writtenFor: entry.writtenFor }),
    ...(entry.reviewed === undefined ? {} : { reviewed: entry.reviewed }),
    ...(entry.systems === undefined ? {} : { systems: entry.systems, checkedOn: checkedSystems(entry.systems) }),
  };
}

/** The guide index, serialized once for the snapshot. */
export function buildGuideList(snapshot: DatasetSnapshot, config: AppConfig): JsonDocument<GuideList> {
  const guides = snapshot.guides.map((entry) => toGuide(entry, snapshot, config));
  return new JsonDocument<GuideList>(
    { version: snapshot.version, count: guides.length, guides },
    snapshot.meta.lastUpdated,
    carriedDeprecations(snapshot.meta.deprecations, { Guide: guides }),
  );
}
