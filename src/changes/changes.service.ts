import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { DatasetRelease } from '../dataset/dto/changelog.dto.js';
import { isCalendarDate } from '../dataset/dto/validators.js';
import { JsonDocument } from '../dataset/json-document.js';
import { TextDocument } from '../dataset/text-document.js';
import { ATOM_CONTENT_TYPE, CHANGES_FEED_PATH, changesAtom } from './changes-feed.js';
import type { ChangeList } from './dto/change-list.dto.js';
import { summariseRelease, type ReleaseSummary } from './release-summary.js';

interface ChangeViews {
  newestFirst: readonly DatasetRelease[];
  summariesNewestFirst: readonly ReleaseSummary[];
  json: JsonDocument<ChangeList>;
  atom: TextDocument;
}

/** The dataset's release history (changelog.json), newest first: as JSON, as Atom, and filtered for MCP. */
@Injectable()
export class ChangesService {
  private readonly views: DatasetView<ChangeViews>;

  constructor(
    private readonly dataset: DatasetService,
    config: AppConfig,
  ) {
    this.views = dataset.view((snapshot) => {
      const newestFirst = [...snapshot.changelog].reverse();
      const lastModified = newestFirst[0]?.date ?? snapshot.meta.lastUpdated;
      return {
        newestFirst,
        summariesNewestFirst: newestFirst.map(summariseRelease),
        json: new JsonDocument<ChangeList>(
          {
            version: snapshot.version,
            count: newestFirst.length,
            feed: config.url(CHANGES_FEED_PATH),
            releases: newestFirst as DatasetRelease[],
          },
          lastModified,
        ),
        atom: new TextDocument(changesAtom(snapshot, newestFirst, config), ATOM_CONTENT_TYPE, lastModified),
      };
    });
  }

  /** `changes.json`, serialized. */
  json(): JsonDocument<ChangeList> {
    return this.views.get().json;
  }

  /** `changes.atom`, serialized. */
  atom(): TextDocument {
    return this.views.get().atom;
  }

  /** The dataset version being served. */
  currentVersion(): string {
    return this.dataset.current.version;
  }

  /** Releases newest first, only those later than `since` when given; throws InvalidArgumentError for a malformed version. */
  since(since?: string): readonly DatasetRelease[] {
    return this.after(this.views.get().newestFirst, since);
  }

  /** The same releases as `since`, each summarised as counts per provider (see release-summary.ts). */
  summariesSince(since?: string): readonly ReleaseSummary[] {
    return this.after(this.views.get().summariesNewestFirst, since);
  }

  private after<T extends { version: string }>(releases: readonly T[], since?: string): readonly T[] {
    if (since === undefined) return releases;
    if (!isCalendarDate(since))
      throw new InvalidArgumentError('since', 'must be a dataset version written YYYY-MM-DD, e.g. 2026-11-26.');
    return releases.filter((r) => r.version > since);
  }
}
