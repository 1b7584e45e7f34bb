import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { isCalendarDate } from '../src/dataset/dto/validators.js';
import { DATA_DIR, rawGuides, rawMeta } from './support/raw-data.js';
import {
  findPins,
  PIN_RULES,
  readSoftwareReleases,
  resolveRelease,
  versionProblems,
  type GuideVersions,
} from './support/software-pins.js';

/**
 * Versions that stay current (issue #28 §3). Every tutorial that pins software names the product in
 * `verifiedWith` (the versions its checks ran) or `writtenFor` (those its steps were written for); no pin
 * and no version either states may be a release that is over at the
 * dataset version (data/software-releases.json says when each one ends, with its source), unless an
 * operating system release the tutorial names packages it and is itself supported. A fixture shows each
 * refusal on a broken tutorial.
 */
const releases = readSoftwareReleases(DATA_DIR);
const products = releases.products;
const day: string = rawMeta.version;

const FIXTURES = resolve('test/fixtures/software-versions');
const fixture = (name: string): GuideVersions => {
  const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(readFileSync(join(FIXTURES, `${name}.md`), 'utf8'))!;
  const fm = parse(front);
  return { slug: fm.slug, body, verifiedWith: fm.verifiedWith, writtenFor: fm.writtenFor };
};
const problemsOf = (name: string) => versionProblems(fixture(name), products, day);

describe('software-releases.json', () => {
  it('lists each product once with its source, read no later than the dataset version', () => {
    const ids = products.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = products.flatMap((p) => [p.id, ...(p.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const p of products) {
      expect(p.source.url).toMatch(
        /^https:\/\/github\.com\/endoflife-date\/endoflife\.date\/blob\/[0-9a-f]{40}\/products\/[a-z0-9-]+\.md$/,
      );
      expect(isCalendarDate(p.source.retrievedAt) && p.source.retrievedAt <= day).toBe(true);
      expect(p.eolMeans.length).toBeGreaterThan(10);
      expect(p.releases.length).toBeGreaterThan(0);
    }
  });

  it('gives each release its release day and an end of life after it, or "supported"', () => {
    for (const p of products) {
      for (const r of p.releases) {
        const at = `${p.id} ${r.cycle}`;
        expect([at, /^\d+(\.\d+)*$/.test(r.cycle)]).toEqual([at, true]);
        expect([at, isCalendarDate(r.released)]).toEqual([at, true]);
        expect([at, r.eol === 'supported' || (isCalendarDate(r.eol) && r.eol > r.released)]).toEqual([at, true]);
        if (r.standardSupportEnd !== undefined)
          expect([at, r.standardSupportEnd === 'supported' || r.standardSupportEnd <= r.eol]).toEqual([at, true]);
      }
    }
  });

  it('names, for each version an operating system packages, a listed release and the archive it was read from', () => {
    const packaged = products.flatMap((p) =>
      p.releases.flatMap((r) => (r.packages ?? []).map((pkg) => ({ os: `${p.id} ${r.cycle}`, ...pkg }))),
    );
    expect(packaged.length).toBeGreaterThan(0);
    for (const pkg of packaged) {
      const product = products.find((p) => p.id === pkg.product);
      expect([pkg.os, pkg.product, product?.releases.some((r) => r.cycle === pkg.cycle)]).toEqual([
        pkg.os,
        pkg.product,
        true,
      ]);
      expect(pkg.source.url).toMatch(/^https?:\/\/(deb\.debian\.org|packages\.debian\.org|packages\.ubuntu\.com)\//);
      expect(pkg.source.retrievedAt <= day).toBe(true);
    }
  });

  it('has pin patterns for exactly the listed products', () => {
    expect(Object.keys(PIN_RULES).sort()).toEqual(products.map((p) => p.id).sort());
  });
});

describe('pins and their releases', () => {
  const product = (id: string) => products.find((p) => p.id === id)!;
  const cycle = (id: string, version: string) => {
    const r = resolveRelease(product(id), version);
    return 'release' in r ? r.release.cycle : r.problem;
  };

  it('reads a version into its release cycle: finer versions into theirs, a coarser tag into the newest under it', () => {
    expect(cycle('traefik', 'v3.6.1')).toBe('3.6');
    expect(cycle('postgresql', '16.3')).toBe('16');
    expect(cycle('nodejs', '22.x')).toBe('22');
    expect(cycle('ubuntu', '24.04')).toBe('24.04');
    expect(cycle('mariadb', '10.11.6-1')).toBe('10.11');
    expect(cycle('redis', '7')).toBe('7.4');
    expect(cycle('postgresql', '9.4')).toMatch(/older than the oldest release/);
    expect(cycle('nextcloud', '99')).toMatch(/is not a release software-releases.json lists/);
  });

  it('finds image tags, versioned packages, units, paths and repositories, and not look-alikes', () => {
    const found = (body: string) =>
      findPins(body, products).map((p) => `${p.product} ${p.version}${p.floor ? ' (floor)' : ''}`);
    expect(found('image: traefik:v3.1\nimage: traefik/whoami:v1.10\nimage: docker.io/library/traefik:v3.7')).toEqual([
      'traefik 3.1',
      'traefik 3.7',
    ]);
    expect(found('fastcgi_pass unix:/run/php/php8.3-fpm.sock; /etc/php/8.2/fpm/pool.d')).toEqual([
      'php 8.3',
      'php 8.2',
    ]);
    expect(
      found(
        'sudo -u postgres tar -C /var/lib/postgresql/16/main; systemctl edit postgresql@15-main; redis://cache:6379',
      ),
    ).toEqual(['postgresql 16', 'postgresql 15']);
    expect(found('https://deb.nodesource.com/node_22.x nodistro main')).toEqual(['nodejs 22']);
    expect(found('apt install -y openjdk-21-jre-headless python3.12-venv python3-venv')).toEqual([
      'java 21',
      'python 3.12',
    ]);
    expect(found('  required_version = ">= 1.10"')).toEqual(['terraform 1.10 (floor)']);
    expect(found('Dokku supports Ubuntu 22.04/24.04 and Debian 11/12.')).toEqual([
      'ubuntu 22.04',
      'ubuntu 24.04',
      'debian 11',
      'debian 12',
    ]);
    expect(found('Debian 12, 2 GB of RAM; hcloud server create --image debian-13; on bookworm')).toEqual([
      'debian 12',
      'debian 13',
      'debian 12',
    ]);
    // History, not a pin: the release is named as the start or end of a change.
    expect(
      found('Since Ubuntu 25.10 the default is chrony; Debian 11 and later ship it; nginx 1.17.1 added dry runs'),
    ).toEqual([]);
  });
});

describe('fixtures: each refusal on a broken tutorial', () => {
  it('refuses pins of releases that are over, in code and in prose, and not the look-alike image', () => {
    expect(problemsOf('eol-pins')).toEqual([
      'eol-pins:6 pins nextcloud 30: Nextcloud 30 reached end of life on 2025-10-31 (the end of maintenance of the major version) ("image: nextcloud:30-apache")',
      'eol-pins:8 pins traefik 3.1: Traefik 3.1 reached end of life on 2024-10-28 (the end of security fixes) ("image: traefik:v3.1")',
      'eol-pins:13 pins debian 11: Debian 11 reached end of life on 2026-08-31 (the end of Debian LTS (security updates from the Debian LTS team, through the same security archive, after the Debian security team\'s regular support ends on standardSupportEnd)) ("Dokku supports Debian 11/12 on a fresh server.")',
    ]);
  });

  it('refuses supported pins of products neither verifiedWith nor writtenFor names', () => {
    expect(problemsOf('unnamed-pins')).toEqual([
      'unnamed-pins: pins PHP (line 4) but neither verifiedWith nor writtenFor names php',
      'unnamed-pins: pins Java (OpenJDK, as built by Eclipse Temurin) (line 4) but neither verifiedWith nor writtenFor names java or openjdk or temurin or eclipse-temurin or jdk or jre',
      'unnamed-pins: pins Node.js (line 5) but neither verifiedWith nor writtenFor names nodejs or node',
      'unnamed-pins: pins PostgreSQL (line 6) but neither verifiedWith nor writtenFor names postgresql or postgres',
    ]);
  });

  it('refuses verifiedWith versions that are over, unless a named, supported system packages them', () => {
    expect(problemsOf('eol-verified')).toEqual([
      'eol-verified: verifiedWith.terraform "1.11": Terraform 1.11 reached end of life on 2025-08-20 (the end of support: HashiCorp fixes the two newest minor versions)',
      'eol-verified: verifiedWith.nginx "1.22": nginx 1.22 reached end of life on 2023-04-11 (the release of the next stable branch: nginx.org fixes only the current stable and mainline branches)',
      'eol-verified: verifiedWith.postgres "13.4": PostgreSQL 13 reached end of life on 2025-11-13 (the final minor release of the major version)',
      'eol-verified: verifiedWith.mysql "8.0": MySQL 8.0 reached end of life on 2026-04-30 (the end of Oracle\'s extended support (no more fixes))',
    ]);
  });

  it('refuses a version older than any listed release, and one the list does not know', () => {
    expect(problemsOf('unknown-versions')).toEqual([
      'unknown-versions:6 pins postgresql 9.4: PostgreSQL 9.4 is older than the oldest release software-releases.json lists (11), which is older than any supported one ("image: postgres:9.4")',
      'unknown-versions:8 pins nextcloud 99: Nextcloud 99 is not a release software-releases.json lists: add it with its source, or correct the version ("image: nextcloud:99")',
      'unknown-versions: verifiedWith.postgresql "9.4": PostgreSQL 9.4 is older than the oldest release software-releases.json lists (11), which is older than any supported one',
      'unknown-versions: verifiedWith.nextcloud "99": Nextcloud 99 is not a release software-releases.json lists: add it with its source, or correct the version',
    ]);
  });

  it('takes a product writtenFor names as named, and holds its versions to their end of life too', () => {
    expect(problemsOf('written-for')).toEqual([
      'written-for:2 pins php 8.1: PHP 8.1 reached end of life on 2025-12-31 (the end of security support) ("sudo apt install php8.1-fpm postgresql-16")',
      'written-for: writtenFor.php "8.1": PHP 8.1 reached end of life on 2025-12-31 (the end of security support)',
    ]);
  });

  it('takes a release named as history for no pin, and the same release named plainly for one', () => {
    expect(problemsOf('history')).toEqual([
      'history:2 pins ubuntu 25.10: Ubuntu 25.10 reached end of life on 2026-07-01 (the end of standard security maintenance (later updates need an Ubuntu Pro subscription)) ("ship timedatectl. The same sentence without a date is a pin: Ubuntu 25.10 switched the default.")',
    ]);
  });

  it('accepts a tutorial whose every pin is supported and named, with a distribution-patched branch on the system that packages it', () => {
    expect(problemsOf('supported')).toEqual([]);
  });
});

describe('tutorials', () => {
  const tutorials: GuideVersions[] = rawGuides
    .filter((g: { type: string }) => g.type === 'tutorial')
    .map(
      (g: {
        slug: string;
        body: string;
        verifiedWith?: Record<string, string>;
        writtenFor?: Record<string, string>;
        systems?: string[];
      }) => ({
        slug: g.slug,
        body: g.body,
        verifiedWith: g.verifiedWith,
        writtenFor: g.writtenFor,
        systems: g.systems,
      }),
    );

  it('reads every tutorial in data/guides', () => {
    const files = readdirSync(join(DATA_DIR, 'guides')).filter((f) => f.endsWith('.md'));
    expect(tutorials.length).toBeGreaterThan(0);
    expect(tutorials.length).toBeLessThanOrEqual(files.length);
  });

  it(`pins no release that is over on the dataset version (${day}), and names every pinned product in verifiedWith or writtenFor at a supported version`, () => {
    const problems = tutorials.flatMap((t) => versionProblems(t, products, day));
    expect(problems).toEqual([]);
  });
});
