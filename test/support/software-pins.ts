import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Pins of supported software in tutorials, and whether the versions they pin are still supported,
 * judged against `data/software-releases.json` at a given day (the dataset version).
 *
 * A pin is text that selects the version a reader installs or runs: an image tag (`nextcloud:30-apache`),
 * a versioned package, repository, unit or path (`php8.3-fpm`, `node_22.x`, `postgresql@16-main`,
 * `/etc/postgresql/16/main`, `openjdk-21-jre-headless`), a version constraint (`required_version`), and for
 * operating systems the release a tutorial names (`Ubuntu 24.04`, `Debian 12 or 13`, `bookworm`).
 * A version named as history (`since Ubuntu 25.10`, `Debian 12 and later`) is not a pin; nor is an
 * application version in prose (`nginx 1.17.1 added ...`), which states a fact rather than choosing
 * what gets installed.
 */

export interface Source {
  url: string;
  retrievedAt: string;
}
export interface PackagedVersion {
  product: string;
  cycle: string;
  source: Source;
}
export interface Release {
  cycle: string;
  codename?: string;
  released: string;
  /** The day support ends, or "supported" when no end is announced. */
  eol: string;
  standardSupportEnd?: string;
  /** Versions of other products this (operating system) release packages and keeps patched. */
  packages?: PackagedVersion[];
}
export interface Product {
  id: string;
  name: string;
  aliases?: string[];
  eolMeans: string;
  source: Source;
  /** Newest first. */
  releases: Release[];
}
export interface SoftwareReleases {
  description: string;
  products: Product[];
}

export const readSoftwareReleases = (dataDir: string): SoftwareReleases =>
  JSON.parse(readFileSync(join(dataDir, 'software-releases.json'), 'utf8'));

export interface Pin {
  product: string;
  /** The version as written, without a leading `v`. */
  version: string;
  /**
   * A floor (`>= 1.10`, `~> 1.10`): any newer release satisfies it, so it holds the reader to no old
   * release and asks nothing of verifiedWith (a guide names there only what it was really checked with).
   */
  floor?: boolean;
  line: number;
  /** Offset in the body, for ordering pins on one line. */
  index: number;
  text: string;
}

type Rule = { re: RegExp; floor?: boolean; versions?: (m: RegExpExecArray) => string[] };

const OS_HISTORY_BEFORE = /\b(?:since|before|until|prior to|older than|newer than|after|up to)\s+$/i;
const OS_HISTORY_AFTER = /^(?:\+|\s+(?:and|or)\s+(?:later|newer|above|earlier|older)\b|\s+onwards?\b)/i;

/** Head version and `/ , or and` continuations: `Debian 11/12`, `Ubuntu 22.04 or 24.04`. */
const withContinuations = (one: string) => (m: RegExpExecArray) => [
  m[1],
  ...(m[2] ? [...m[2].matchAll(new RegExp(one, 'g'))].map((c) => c[0]) : []),
];

/** Per-product pin patterns; group 1 is the version. Exported so the spec can check every listed product has some. */
export const PIN_RULES: Record<string, Rule[]> = {
  debian: [
    // A continuation is a neighbouring release (`Debian 12 and 13`), not any number that follows (`Debian 12, 2 GB`).
    {
      re: /\bDebian\s+(\d{1,2})(?!\.?\d)((?:\s*(?:\/|,|or|and)\s*\d{1,2}(?!\.?\d))*)/g,
      versions: (m) => withContinuations('\\d{1,2}')(m).filter((v) => Math.abs(Number(v) - Number(m[1])) <= 3),
    },
    { re: /\bdebian[-:](\d{1,2})(?!\.?\d)/g },
  ],
  ubuntu: [
    {
      re: /\bUbuntu\s+(\d{2}\.\d{2})((?:\s*(?:\/|,|or|and)\s*\d{2}\.\d{2})*)/g,
      versions: withContinuations('\\d{2}\\.\\d{2}'),
    },
    { re: /\bubuntu[-:_](\d{2})[.-](\d{2})\b/g, versions: (m) => [`${m[1]}.${m[2]}`] },
  ],
  nginx: [{ re: /(?<![\w.-])nginx:(\d+\.\d+)/g }, { re: /\bnginx=(\d+\.\d+)/g }],
  php: [
    { re: /\bphp(\d\.\d+)(?![\d.])/g },
    { re: /\bphp-fpm(\d\.\d+)\b/g },
    { re: /\/etc\/php\/(\d\.\d+)\//g },
    { re: /(?<![\w.-])php:(\d\.\d+)/g },
  ],
  nextcloud: [{ re: /(?<![\w.-])nextcloud:(\d+)/g }],
  nodejs: [
    { re: /\bnode_(\d+)\.x\b/g },
    { re: /\bsetup_(\d+)\.x\b/g },
    { re: /(?<![\w.-])node:(\d+)/g },
    { re: /\bNODE_MAJOR=(\d+)/g },
  ],
  postgresql: [
    { re: /(?<![\w.-])postgres(?:ql)?:(\d+(?:\.\d+)?)/g },
    { re: /\bpostgresql@(\d+)-/g },
    { re: /\/(?:etc|var\/lib|usr\/lib)\/postgresql\/(\d+)\//g },
    { re: /\bpostgresql-(?:client-)?(\d+)\b/g },
  ],
  mariadb: [
    { re: /(?<![\w.-])mariadb:(\d+\.\d+)/g },
    { re: /\bmariadb-server-(\d+\.\d+)/g },
    { re: /--mariadb-server-version=["']?(?:mariadb-)?(\d+\.\d+)/g },
  ],
  mysql: [{ re: /(?<![\w.-])mysql:(\d+(?:\.\d+)?)/g }, { re: /\bmysql-server-(\d+\.\d+)/g }],
  redis: [{ re: /(?<![\w.-])redis:(\d+(?:\.\d+)?)/g }],
  valkey: [{ re: /(?<![\w.-])valkey:(\d+(?:\.\d+)?)/g }],
  traefik: [{ re: /(?<![\w.-])traefik:v?(\d+(?:\.\d+)?)/g }],
  'docker-engine': [{ re: /\bdocker-ce(?:-cli)?=(?:5:)?(\d+(?:\.\d+)?)/g }],
  java: [{ re: /\b(?:openjdk|temurin)-(\d+)-j(?:dk|re)/g }, { re: /(?<![\w.-])eclipse-temurin:(\d+)/g }],
  python: [{ re: /\bpython(3\.\d+)(?![\d.])/g }, { re: /(?<![\w.-])python:(3\.\d+)/g }],
  'ansible-core': [{ re: /\bansible-core\s*[=~]=\s*(\d+\.\d+)/g }],
  ansible: [{ re: /\bansible\s*[=~]=\s*(\d+)/g }],
  terraform: [
    { re: /required_version\s*=\s*"\s*(?:>=|~>)\s*v?(\d+\.\d+)/g, floor: true },
    { re: /required_version\s*=\s*"\s*=?\s*v?(\d+\.\d+)/g },
    { re: /(?<![\w.-])hashicorp\/terraform:(\d+\.\d+)/g },
    { re: /\bterraform_(\d+\.\d+)\.\d+_linux/g },
  ],
  haproxy: [
    { re: /(?<![\w.-])haproxy:(\d+\.\d+)/g },
    { re: /\bhaproxy=(\d+\.\d+)/g },
    { re: /\bppa:vbernat\/haproxy-(\d+\.\d+)/g },
  ],
  caddy: [{ re: /(?<![\w.-])caddy:(\d+(?:\.\d+)?)/g }],
};

const OS_PRODUCTS = new Set(['debian', 'ubuntu']);

/** Every pin in a markdown body, with its line (1-based, counted in the body). */
export function findPins(body: string, products: Product[]): Pin[] {
  const pins: Pin[] = [];
  const lineOf = (index: number) => body.slice(0, index).split('\n').length;
  const lineText = (index: number) => body.split('\n')[lineOf(index) - 1].trim();
  for (const [product, rules] of Object.entries(PIN_RULES)) {
    const seen = new Set<number>();
    for (const rule of rules) {
      for (const m of body.matchAll(rule.re)) {
        const index = m.index!;
        if (seen.has(index)) continue;
        seen.add(index);
        if (OS_PRODUCTS.has(product)) {
          const before = body.slice(Math.max(0, index - 20), index);
          const after = body.slice(index + m[0].length, index + m[0].length + 20);
          if (OS_HISTORY_BEFORE.test(before) || OS_HISTORY_AFTER.test(after)) continue;
        }
        const versions = rule.versions ? rule.versions(m as RegExpExecArray) : [m[1]];
        for (const version of versions)
          pins.push({
            product,
            version,
            line: lineOf(index),
            index,
            text: lineText(index),
            ...(rule.floor ? { floor: true } : {}),
          });
      }
    }
  }
  // Release names: `bookworm`, `noble` (the common-word codenames are left out: "focal", "resolute").
  const CODENAMES = new Set(['bullseye', 'bookworm', 'trixie', 'forky', 'jammy', 'noble']);
  for (const p of products.filter((x) => OS_PRODUCTS.has(x.id))) {
    for (const r of p.releases.filter((x) => x.codename && CODENAMES.has(x.codename))) {
      for (const m of body.matchAll(new RegExp(`\\b${r.codename}\\b`, 'gi'))) {
        pins.push({
          product: p.id,
          version: r.cycle,
          line: lineOf(m.index!),
          index: m.index!,
          text: lineText(m.index!),
        });
      }
    }
  }
  return pins.sort((a, b) => a.index - b.index || a.product.localeCompare(b.product));
}

const parts = (v: string) => v.split('.').map((n) => Number(n));
const compare = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

export type Resolved = { release: Release } | { problem: string };

/**
 * The release cycle a version belongs to: the longest listed cycle it starts with (`3.6.1` is in 3.6,
 * `16.3` in 16), or for a version coarser than the cycles, the newest cycle under it (a `redis:7` tag
 * runs the newest 7.x). Anything else is a problem: older than every listed release, or not listed.
 */
export function resolveRelease(product: Product, written: string): Resolved {
  const version = written
    .replace(/^v/, '')
    .replace(/[-+~].*$/, '')
    .replace(/\.x$/, '');
  const within = product.releases.filter((r) => version === r.cycle || version.startsWith(`${r.cycle}.`));
  if (within.length > 0) return { release: within.sort((a, b) => b.cycle.length - a.cycle.length)[0] };
  const under = product.releases
    .filter((r) => r.cycle.startsWith(`${version}.`))
    .sort((a, b) => compare(b.cycle, a.cycle));
  if (under.length > 0) return { release: under[0] };
  const oldest = [...product.releases].sort((a, b) => compare(a.cycle, b.cycle))[0];
  if (/^\d+(\.\d+)*$/.test(version) && compare(version, oldest.cycle) < 0) {
    return {
      problem: `${product.name} ${written} is older than the oldest release software-releases.json lists (${oldest.cycle}), which is older than any supported one`,
    };
  }
  return {
    problem: `${product.name} ${written} is not a release software-releases.json lists: add it with its source, or correct the version`,
  };
}

export const isEndOfLife = (release: Release, day: string) => release.eol !== 'supported' && release.eol <= day;

/** The product a `verifiedWith` key names, by id or alias. */
export const productNamed = (products: Product[], key: string) =>
  products.find((p) => p.id === key || p.aliases?.includes(key));

/**
 * Why a release is acceptable although its own branch is over: an operating system release the tutorial
 * was checked on packages it and is itself supported on `day`. Undefined when there is no such release.
 */
export function packagedBySupportedOs(
  products: Product[],
  product: string,
  cycle: string,
  osReleases: { product: string; cycle: string }[],
  day: string,
): string | undefined {
  for (const os of osReleases) {
    const release = products.find((p) => p.id === os.product)?.releases.find((r) => r.cycle === os.cycle);
    if (!release || isEndOfLife(release, day)) continue;
    if (release.packages?.some((pkg) => pkg.product === product && pkg.cycle === cycle))
      return `${os.product} ${os.cycle}`;
  }
  return undefined;
}

export interface GuideVersions {
  slug: string;
  body: string;
  /** The versions the checks ran with. */
  verifiedWith?: Record<string, string>;
  /** The versions the steps were written for and no check ran. */
  writtenFor?: Record<string, string>;
  /** The systems the tutorial is written for (`debian-13`, `ubuntu-24.04`): an operating system it names. */
  systems?: string[];
}

/**
 * Every problem with a tutorial's versions on `day`: a pin of a release that is over (or unknown), a
 * pinned product neither `verifiedWith` nor `writtenFor` names, and a version either states that is over
 * (or unknown). A release whose own branch is over passes when an operating system release the tutorial
 * names packages it and is still supported (the distribution patches it).
 */
export function versionProblems(guide: GuideVersions, products: Product[], day: string): string[] {
  const problems: string[] = [];
  const byId = new Map(products.map((p) => [p.id, p]));
  /** Each product named -> each field and key that names it, with the versions it states. */
  const verified = new Map<string, Array<{ key: string; versions: string[] }>>();
  for (const field of ['verifiedWith', 'writtenFor'] as const)
    for (const [key, value] of Object.entries(guide[field] ?? {})) {
      const product = productNamed(products, key);
      if (product)
        verified.set(product.id, [
          ...(verified.get(product.id) ?? []),
          { key: `${field}.${key}`, versions: value.split(',').map((v) => v.trim()) },
        ]);
    }
  // The systems a tutorial names count as named operating system releases, checked or not (an Ubuntu
  // release is written for but checked with a Debian release's tools; verifiedWith never claims it).
  for (const system of guide.systems ?? []) {
    const [id, version] = system.split('-');
    if (!OS_PRODUCTS.has(id)) continue;
    const entries = verified.get(id) ?? [];
    if (!entries.some((e) => e.versions.includes(version))) entries.push({ key: `systems ${id}`, versions: [version] });
    verified.set(id, entries);
  }
  const osReleases = [...verified.entries()]
    .filter(([id]) => OS_PRODUCTS.has(id))
    .flatMap(([id, entries]) =>
      entries
        .flatMap(({ versions }) => versions)
        .flatMap((v) => {
          const r = resolveRelease(byId.get(id)!, v);
          return 'release' in r ? [{ product: id, cycle: r.release.cycle }] : [];
        }),
    );
  const over = (product: Product, release: Release) => {
    if (!isEndOfLife(release, day)) return undefined;
    const packagedBy = packagedBySupportedOs(products, product.id, release.cycle, osReleases, day);
    return packagedBy
      ? undefined
      : `${product.name} ${release.cycle} reached end of life on ${release.eol} (${product.eolMeans})`;
  };

  const pins = findPins(guide.body, products);
  for (const pin of pins) {
    const product = byId.get(pin.product)!;
    const resolved = resolveRelease(product, pin.version);
    if ('problem' in resolved) {
      problems.push(
        `${guide.slug}:${pin.line} pins ${pin.product} ${pin.version}: ${resolved.problem} ("${pin.text}")`,
      );
      continue;
    }
    const ended = pin.floor ? undefined : over(product, resolved.release);
    if (ended) problems.push(`${guide.slug}:${pin.line} pins ${pin.product} ${pin.version}: ${ended} ("${pin.text}")`);
  }
  for (const id of new Set(pins.filter((p) => !p.floor).map((p) => p.product))) {
    if (!verified.has(id)) {
      const product = byId.get(id)!;
      const names = [id, ...(product.aliases ?? [])].join(' or ');
      problems.push(
        `${guide.slug}: pins ${product.name} (line ${pins.find((p) => p.product === id)!.line}) but neither verifiedWith nor writtenFor names ${names}`,
      );
    }
  }
  for (const [id, entries] of verified) {
    const product = byId.get(id)!;
    for (const { key, versions } of entries)
      for (const version of versions) {
        const resolved = resolveRelease(product, version);
        if ('problem' in resolved) problems.push(`${guide.slug}: ${key} "${version}": ${resolved.problem}`);
        else {
          const ended = over(product, resolved.release);
          if (ended) problems.push(`${guide.slug}: ${key} "${version}": ${ended}`);
        }
      }
  }
  return problems;
}
