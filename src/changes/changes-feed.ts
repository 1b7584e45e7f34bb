import { Feed } from 'feed';
import type { AppConfig } from '../config/app-config.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { DatasetRelease } from '../dataset/dto/changelog.dto.js';
import { escapeHtml } from '../pages/html.js';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
export const CHANGES_FEED_PATH = '/changes.atom';

const day = (date: string) => new Date(`${date}T00:00:00Z`);
const price = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

/** The changes of one release as a short HTML list for a feed reader (every value escaped). */
function releaseHtml(release: DatasetRelease): string {
  const c = release.changes;
  const item = (text: string) => `<li>${escapeHtml(text)}</li>`;
  const lines = [
    ...c.providersAdded.map((id) => item(`Provider added: ${id}`)),
    ...c.providersRemoved.map((id) => item(`Provider removed: ${id}`)),
    ...c.plansRepriced.map((p) =>
      item(`${p.providerId} ${p.planName}: ${price(p.oldPrice, p.oldCurrency)} → ${price(p.newPrice, p.currency)}`),
    ),
    ...c.plansAdded.map((p) => item(`Plan added: ${p.providerId} ${p.planName} at ${price(p.price, p.currency)}`)),
    ...c.plansRemoved.map((p) =>
      item(`Plan removed: ${p.providerId} ${p.planName} (was ${price(p.price, p.currency)})`),
    ),
    ...c.providerFacts.map((f) => item(`${f.providerId} ${f.field} changed`)),
    ...c.guidesAdded.map((g) => item(`Guide added: ${g.title}`)),
    ...c.guidesUpdated.map((g) => item(`Guide updated: ${g.title} (${g.date})`)),
  ];
  return `<p>${escapeHtml(release.summary)}</p>${lines.length > 0 ? `<ul>${lines.join('')}</ul>` : ''}`;
}

/** The releases as an Atom 1.0 feed, newest first; dates come from the changelog, so the bytes change only with it. */
export function changesAtom(
  snapshot: DatasetSnapshot,
  newestFirst: readonly DatasetRelease[],
  config: AppConfig,
): string {
  const self = config.url(CHANGES_FEED_PATH);
  const feed = new Feed({
    id: self,
    title: 'vpsapi dataset releases',
    description:
      'What changed in each release of the VPS comparison dataset: plans added, removed or repriced, provider facts and guides.',
    link: config.url('/plans'),
    feedLinks: { atom: self },
    updated: day(newestFirst[0]?.date ?? snapshot.meta.lastUpdated),
    copyright: snapshot.meta.license.credit,
    author: { name: snapshot.meta.source, link: config.url('/') },
    generator: 'vpsapi',
  });
  for (const release of newestFirst) {
    feed.addItem({
      id: `${config.url('/api/changes.json')}#${release.version}`,
      title: `Dataset ${release.version}: ${release.summary}`,
      link: config.url('/plans'),
      date: day(release.date),
      description: release.summary,
      content: releaseHtml(release),
    });
  }
  return feed.atom1();
}
