import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allProse, publishedGuideProse } from './support/prose-corpus.js';
import { CHECKERS, providerClaims, type ClaimKind } from './support/claims/provider-claims.js';

/*
 * Claims prose makes about one provider (traffic, prices of a line, support and SLA, included
 * add-ons) must hold for that provider's data. The checkers live in test/support/claims/provider-claims.ts
 * and read both the claim (from the sentence) and the fact (from providers.json); this runs them over
 * every piece of editorial prose and every guide as published, and over a fixture of bad claims that
 * each must be caught.
 */

const KINDS = Object.keys(CHECKERS) as ClaimKind[];
const fixture: { claims: { kind: ClaimKind; text: string; providerId?: string; why: string }[] } = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'prose-claims', 'provider-claims.json'), 'utf8'),
);

describe('prose claims about one provider', () => {
  const claims = providerClaims([...allProse, ...publishedGuideProse]);
  const show = (c: { where: string; providerId: string; quote: string; wrong?: string }) =>
    `${c.where} [${c.providerId}] "${c.quote}": ${c.wrong}`;

  it('reads claims of every kind in the prose, true ones among them (the checks are not vacuous)', () => {
    for (const kind of KINDS) {
      expect({ kind, found: claims.filter((c) => c.kind === kind && !c.wrong).length > 0 }).toEqual({
        kind,
        found: true,
      });
    }
  });

  it.each(KINDS)('holds every %s claim to the data', (kind) => {
    expect(claims.filter((c) => c.kind === kind && c.wrong).map(show)).toEqual([]);
  });

  it.each(KINDS)('catches every bad %s claim of the fixture', (kind) => {
    const bad = fixture.claims.filter((c) => c.kind === kind);
    expect(bad.length).toBeGreaterThan(0);
    const missed = bad.filter(
      (c) => !CHECKERS[kind]({ where: 'fixture', text: c.text, providerId: c.providerId }).some((found) => found.wrong),
    );
    expect(missed.map((c) => `${c.text} (${c.why})`)).toEqual([]);
  });
});
