import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/browser';
import { rawGuides, rawMeta, rawProviders, rawUseCases } from './support/raw-data';
import { freePort } from './support/redis-server';
import { startTestApp, type TestApp } from './support/test-app';

/** What a person sees, in a real browser (Debian's Chromium driven by playwright-core). */
describe('in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let problems: string[];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ PUBLIC_BASE_URL: base, RATE_LIMIT_REQUESTS: '100000' }, port);
    browser = await launchChromium();
    mkdirSync('test-results', { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A fresh page that records console errors and failed requests. */
  async function open(path: string, width = 1280): Promise<Page> {
    problems = [];
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
    const res = await page.goto(base + path);
    expect(res?.status()).toBe(200);
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/${name}.png`, fullPage: true });

  it('shows the home page with every provider, and its links work when clicked', async () => {
    const page = await open('/');
    expect(await page.textContent('h1')).toBe('Compare VPS hosting providers');
    for (const p of rawProviders.providers) expect(await page.locator(`a[href="${base}/providers/${p.id}"]`).count()).toBeGreaterThan(0);
    await shot(page, 'home');
    await page.click(`a[href="${base}/providers/vultr"]`);
    await page.waitForURL(`${base}/providers/vultr`);
    expect(await page.textContent('h1')).toBe('Vultr');
    await page.click('header.site a:has-text("Guides")');
    await page.waitForURL(`${base}/guides`);
    expect(await page.textContent('h1')).toBe('Guides');
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('shows a provider page with one table row per plan', async () => {
    const provider = rawProviders.providers.find((p: any) => p.id === 'hetzner');
    const page = await open('/providers/hetzner');
    expect(await page.textContent('h1')).toBe(provider.name);
    const planTable = page.locator('table', { has: page.locator('th', { hasText: 'Price a month' }) });
    expect(await planTable.locator('tbody tr').count()).toBe(provider.plans.length);
    // The price comes first, so that a phone shows it without scrolling the table.
    const firstRow = planTable.locator('tbody tr').first().locator('td');
    // A price seen more than 90 days before the release says so beside it, in words.
    const stale = Date.parse(rawMeta.version) - Date.parse(provider.plans[0].observedAt) > 90 * 86_400_000;
    expect(await firstRow.nth(0).textContent()).toBe(`${provider.plans[0].price.toFixed(2)} ${provider.plans[0].currency}${stale ? ' (stale)' : ''}`);
    expect(await firstRow.nth(1).textContent()).toBe(provider.plans[0].name);
    await shot(page, 'provider-hetzner');
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('shows a guide readably on a phone, and its in-text links lead to real pages', async () => {
    const guide = rawGuides.find((g) => g.slug === 'wireguard-vpn-server')!;
    const page = await open('/guides/wireguard-vpn-server', 390);
    expect(await page.textContent('h1')).toBe(guide.title);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shot(page, 'guide-phone');
    const link = page.locator(`main a[href^="${base}/guides/"]`).first();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(href!);
    expect(await page.locator('h1').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('shows the plan table readably on a phone: price first, the wide table scrolling in a container that says so', async () => {
    const plans = rawProviders.providers.reduce((n: number, p: any) => n + p.plans.length, 0);
    const page = await open('/plans', 390);
    expect(await page.locator('table.plans tbody tr').count()).toBe(plans);
    expect(await page.locator('table.plans thead th').first().textContent()).toBe('Month to month (USD)');
    // The page itself does not overflow the phone; the table scrolls inside its container.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const wrap = page.locator('div.table-wrap[role="region"]');
    const { scrollWidth, clientWidth } = await wrap.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    expect(await wrap.getAttribute('aria-label')).toMatch(/scrolls/);
    expect(await page.locator('.scroll-hint').isVisible()).toBe(true);
    // The first column is on screen without scrolling.
    const firstCell = await page.locator('table.plans tbody tr').first().locator('td').first().boundingBox();
    expect(firstCell!.x + firstCell!.width).toBeLessThanOrEqual(390);
    await shot(page, 'plans-phone');
    await page.click('nav.sorts a:has-text("RAM")');
    await page.waitForURL(`${base}/plans/by-ram`);
    expect(await page.textContent('h1')).toMatch(/by RAM/);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('shows a use-case page with its sizing and recommended providers', async () => {
    const useCase = rawUseCases.useCases.find((u: any) => u.slug === 'game-server');
    const page = await open('/use-cases/game-server');
    expect(await page.textContent('h1')).toBe(useCase.title);
    for (const r of useCase.recommendedProviders) expect(await page.locator(`h3 a[href="${base}/providers/${r.id}"]`).count()).toBe(1);
    await shot(page, 'use-case-game-server');
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('lists the operations in Swagger UI, and "try it out" gets a 200', async () => {
    const page = await open('/docs');
    await page.waitForSelector('.opblock-summary-path');
    const operations = await page.$$eval('.opblock-summary', (els) =>
      els.map((e) => `${e.querySelector('.opblock-summary-method')?.textContent} ${e.querySelector('.opblock-summary-path')?.textContent}`),
    );
    // Every operation is a GET with its HEAD form beside it.
    const paths = ['/api/index.json', '/api/providers.json', '/api/providers/{providerId}.json', '/api/plans.json', '/api/plans.csv', '/api/guides.json', '/api/use-cases.json', '/api/changes.json'];
    expect(operations).toEqual(paths.flatMap((path) => [`GET ${path}`, `HEAD ${path}`]));
    await page.click('#operations-Providers-getProvider .opblock-summary');
    await page.click('#operations-Providers-getProvider .try-out__btn');
    // providerId is an enum of the dataset's ids, so Swagger UI offers them in a list.
    await page.selectOption('#operations-Providers-getProvider tr[data-param-name="providerId"] select', 'upcloud');
    await page.click('#operations-Providers-getProvider .execute');
    const status = page.locator('#operations-Providers-getProvider .live-responses-table .response-col_status').last();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    await shot(page, 'docs');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
