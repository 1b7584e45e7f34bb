import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
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
    for (const p of rawProviders.providers)
      expect(await page.locator(`a[href="/providers/${p.id}"]`).count()).toBeGreaterThan(0);
    await shot(page, 'home');
    await page.click('a[href="/providers/vultr"]');
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
    expect(await firstRow.nth(0).textContent()).toBe(
      `${provider.plans[0].price.toFixed(2)} ${provider.plans[0].currency}${stale ? ' (stale)' : ''}`,
    );
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
    const link = page.locator('main a[href^="/guides/"]').first();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(base + href!);
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
    const { scrollWidth, clientWidth } = await wrap.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
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
    for (const r of useCase.recommendedProviders)
      expect(await page.locator(`h3 a[href="/providers/${r.id}"]`).count()).toBe(1);
    await shot(page, 'use-case-game-server');
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('lists the operations in Swagger UI, and "try it out" gets a 200', async () => {
    const page = await open('/docs');
    await page.waitForSelector('.opblock-summary-path');
    const operations = await page.$$eval('.opblock-summary', (els) =>
      els.map(
        (e) =>
          `${e.querySelector('.opblock-summary-method')?.textContent} ${e.querySelector('.opblock-summary-path')?.textContent}`,
      ),
    );
    // Every operation is a GET with its HEAD form beside it.
    const paths = [
      '/api/index.json',
      '/api/providers.json',
      '/api/providers/{providerId}.json',
      '/api/plans.json',
      '/api/plans.csv',
      '/api/guides.json',
      '/api/use-cases.json',
      '/api/changes.json',
    ];
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

/**
 * `PORT=<not 3000> npm start` with no PUBLIC_BASE_URL, as a newcomer runs it: the built service, in a
 * browser that reaches it on 127.0.0.1 (another origin than the default public URL's localhost). Every
 * asset, link and the Swagger UI contract must come from the origin the browser reached.
 */
describe('the built service on another port, with no PUBLIC_BASE_URL', () => {
  let child: ChildProcess;
  let browser: Browser;
  let port: number;
  let base: string;
  let stderr = '';

  beforeAll(async () => {
    port = await freePort();
    expect(port).not.toBe(3000);
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      LOG_LEVEL: 'warn',
    };
    delete env.PUBLIC_BASE_URL;
    child = spawn(process.execPath, [resolve('dist/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr!.on('data', (d) => (stderr += d));
    await new Promise<void>((ready, fail) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('vpsapi listening on')) ready();
      });
      child.once('exit', (code) => fail(new Error(`the service exited (${code}): ${out}${stderr}`)));
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  /** A page of the service, with every request it made and every problem seen on it. */
  async function visit(path: string): Promise<{ page: Page; requests: string[]; problems: string[] }> {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
    expect((await page.goto(base + path))?.status()).toBe(200);
    return { page, requests, problems };
  }

  it('starts without a warning, and its absolute URLs follow PORT', async () => {
    expect(stderr).not.toMatch(/Warning/);
    const res = await fetch(`${base}/api/providers/hetzner.json`);
    expect(((await res.json()) as { provider: { url: string } }).provider.url).toBe(
      `http://localhost:${port}/providers/hetzner`,
    );
  });

  it('loads the stylesheet from the port it was reached on, and every link of the page stays there', async () => {
    const { page, requests, problems } = await visit('/');
    const sheets = await page.evaluate(() =>
      [...document.styleSheets].map((sheet) => ({ href: sheet.href, rules: sheet.cssRules.length })),
    );
    expect(sheets).toEqual([{ href: `${base}/assets/site.css`, rules: expect.any(Number) }]);
    expect(sheets[0].rules).toBeGreaterThan(10);
    expect(requests.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))).toEqual([]);
    // Links to this site, resolved by the browser: none leads to another port or host.
    const own = await page.$$eval('a[href]', (links) =>
      links
        .map((a) => (a as HTMLAnchorElement).href)
        .filter((href) => /^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(href)),
    );
    expect(own.length).toBeGreaterThan(20);
    expect(own.filter((href) => !href.startsWith(`${base}/`))).toEqual([]);
    await page.click('header.site a:has-text("Plans")');
    await page.waitForURL(`${base}/plans`);
    await page.click('header.site a:has-text("Guides")');
    await page.waitForURL(`${base}/guides`);
    expect(await page.textContent('h1')).toBe('Guides');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows Swagger UI with the contract fetched from the same port', async () => {
    const { page, requests, problems } = await visit('/docs');
    await page.waitForSelector('.opblock-summary-path');
    expect(requests).toContain(`${base}/openapi.json`);
    expect(requests.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(await page.locator('.opblock-summary').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
