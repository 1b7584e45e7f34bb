/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/browser';
import { rawGuides, rawProviders, rawUseCases } from './support/raw-data';
import { freePort } from './support/redis-server';
import { startTestApp, type TestApp } from './support/test-app';

const PHONE = { width: 390, height: 844 };

/**
 * For each guide type, the guide that tests a phone layout hardest: the most URLs and table rows in
 * its body (ties broken by slug, so the choice is stable).
 */
function hardestGuideOfEachType(): { type: string; slug: string }[] {
  const score = (body: string) => (body.match(/https?:\/\//g) ?? []).length + (body.match(/^\|/gm) ?? []).length;
  const guides: { type: string; slug: string; body: string }[] = rawGuides;
  const types = [...new Set(guides.map((g) => g.type))].sort();
  return types.map((type) => {
    const [best] = guides
      .filter((g) => g.type === type)
      .sort((a, b) => score(b.body) - score(a.body) || a.slug.localeCompare(b.slug));
    return { type, slug: best.slug };
  });
}

/** Every kind of page, listed from the dataset files rather than by hand. */
const PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['guides index', '/guides'],
  ['plans', '/plans'],
  ['API docs (Swagger UI)', '/docs'],
  ...hardestGuideOfEachType().map(({ type, slug }): [string, string] => [`${type} guide ${slug}`, `/guides/${slug}`]),
  ...rawProviders.providers.map((p: { id: string }): [string, string] => [`provider ${p.id}`, `/providers/${p.id}`]),
  ...rawUseCases.useCases.map((u: { slug: string }): [string, string] => [
    `use case ${u.slug}`,
    `/use-cases/${u.slug}`,
  ]),
];

/** What the phone check reads from a page, in the browser. */
interface PhoneReport {
  scrollWidth: number;
  clientWidth: number;
  /** URL-looking text outside any link (code and form controls aside). */
  bareUrls: string[];
  /** External links without rel="noopener". */
  openerLinks: string[];
  /** Tables that scroll sideways without a label, focus or a visible hint saying so. */
  silentScrollers: string[];
  /** Price header cells a phone cannot see without scrolling. */
  hiddenPrices: string[];
  duplicateIds: string[];
}

/** Runs in the page: every check of a phone layout, as data the test can print. */
function inspect(origin: string): PhoneReport {
  const URL_LOOKING = /\bhttps?:\/\/[^\s<>"]+|\bwww\.[a-z0-9-]+\.[a-z]{2,}/i;
  const viewport = document.documentElement.clientWidth;
  // Code is text to copy (commands, config, example hosts), and a form control cannot hold a link.
  const notProse = 'pre, code, option, select, textarea, script, style';
  const bareUrls: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement!;
    const match = URL_LOOKING.exec(node.textContent ?? '');
    if (match && !parent.closest('a') && !parent.closest(notProse)) bareUrls.push(match[0]);
  }
  const openerLinks = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
    .filter(
      (a) =>
        /^https?:$/.test(a.protocol) &&
        a.origin !== origin &&
        !(a.relList.contains('noopener') || a.relList.contains('noreferrer')),
    )
    .map((a) => a.href);
  const visible = (el: Element | null) =>
    !!el && (el as HTMLElement).offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  const silentScrollers = [...document.querySelectorAll('main *')]
    .filter(
      (el) =>
        el.querySelector('table') &&
        el.scrollWidth > el.clientWidth &&
        /auto|scroll/.test(getComputedStyle(el).overflowX),
    )
    .filter((el) => {
      const hint = (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .find((h) => h && /scroll/i.test(h.textContent ?? ''));
      return !(
        el.getAttribute('role') === 'region' &&
        el.getAttribute('tabindex') === '0' &&
        /scroll/i.test(el.getAttribute('aria-label') ?? '') &&
        visible(hint ?? null)
      );
    })
    .map((el) => el.getAttribute('aria-label') ?? el.querySelector('th')?.textContent ?? el.outerHTML.slice(0, 80));
  const hiddenPrices = [...document.querySelectorAll('table')]
    .map((table) =>
      [...table.querySelectorAll('thead th')].find((th) =>
        /price|month to month|cost|bill/i.test(th.textContent ?? ''),
      ),
    )
    .filter((th): th is Element => !!th && th.getBoundingClientRect().right > viewport)
    .map((th) => th.textContent ?? '');
  const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: viewport,
    bareUrls,
    openerLinks,
    silentScrollers,
    hiddenPrices,
    duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
  };
}

/** Every kind of page at a phone's width (390 x 844) in Chromium: nothing scrolls sideways but tables that say so. */
describe('on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ PUBLIC_BASE_URL: base, RATE_LIMIT_REQUESTS: '100000' }, port);
    browser = await launchChromium();
    mkdirSync('test-results/phone', { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: PHONE });
    const res = await page.goto(base + path);
    expect(res?.status()).toBe(200);
    // Swagger UI draws the operations with script after the load event.
    if (path === '/docs') await page.waitForSelector('.opblock-summary-path');
    return page;
  }

  it('checks a guide of every type, every provider and every use case', () => {
    const guideTypes = new Set(rawGuides.map((g: { type: string }) => g.type));
    expect(PAGES.filter(([name]) => / guide /.test(name))).toHaveLength(guideTypes.size);
    expect(PAGES.length).toBe(4 + guideTypes.size + rawProviders.providers.length + rawUseCases.useCases.length);
  });

  it.each(PAGES)(
    '%s (%s) fits the screen, links every URL and says which tables scroll',
    async (name, path) => {
      const page = await open(path);
      try {
        await page.screenshot({ path: `test-results/phone/${name.replace(/[^a-z0-9-]+/gi, '-')}.png`, fullPage: true });
        const report = await page.evaluate(inspect, new URL(base).origin);
        expect({ path, ...report }).toEqual({
          path,
          scrollWidth: PHONE.width,
          clientWidth: PHONE.width,
          bareUrls: [],
          openerLinks: [],
          silentScrollers: [],
          hiddenPrices: [],
          duplicateIds: [],
        });
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
