import { readFileSync } from 'node:fs';
import { allProse, providers, publishedGuideProse, type Prose } from './support/prose-corpus.js';
import { rawUseCases } from './support/raw-data.js';
import { CHECKERS, MEASURES, type ClaimKind, type Finding } from './support/claims/dataset-claims.js';

/*
 * Dataset-wide claims in prose (issue #27 §3): comparisons and superlatives, counts, existence and retired
 * plan identifiers, checked against the data by test/support/claims/dataset-claims.ts over every piece of
 * editorial prose, every guide as published, and a fixture of bad claims that each check must flag.
 */

const KINDS = Object.keys(CHECKERS) as ClaimKind[];
const report = (findings: Finding[]) => findings.map((f) => `${f.where}: ${f.claim}\n    data: ${f.fact}`);

/** The note a use case carries when no plan meets its recommended spec: prose a reader sees on the use-case page. */
const specNotes: Prose[] = rawUseCases.useCases
  .filter((u: any) => typeof u.recommendedSpecNote === 'string')
  .map((u: any) => ({ where: `use-cases.json ${u.slug}.recommendedSpecNote`, text: u.recommendedSpecNote }));

const fixture: { kind: ClaimKind; where: string; providerId?: string; text: string }[] = JSON.parse(
  readFileSync('test/fixtures/prose-claims/dataset-claims.json', 'utf8'),
).claims;

describe('dataset-wide claims in prose', () => {
  describe.each(KINDS)('%s claims', (kind) => {
    it('hold in the editorial prose (providers.json, use cases, editorial inputs, hand-written guides)', () => {
      expect(report(allProse.flatMap(CHECKERS[kind]))).toEqual([]);
    });

    it('hold in every guide as published', () => {
      expect(report(publishedGuideProse.flatMap(CHECKERS[kind]))).toEqual([]);
    });

    it('are caught in the fixture, every bad claim of this kind', () => {
      const claims = fixture.filter((c) => c.kind === kind);
      expect(claims.length).toBeGreaterThan(0);
      const missed = claims
        .filter((c) => CHECKERS[kind]({ where: c.where, text: c.text, providerId: c.providerId }).length === 0)
        .map((c) => c.text);
      expect(missed).toEqual([]);
    });
  });

  it("hold in the use cases' recommended-spec notes", () => {
    expect(report(specNotes.flatMap((p) => KINDS.flatMap((k) => CHECKERS[k](p))))).toEqual([]);
  });

  describe('true claims built from the data pass (the checks read both sides)', () => {
    const best = (measure: keyof typeof MEASURES, ids = providers.map((p) => p.id)) => {
      const m = MEASURES[measure];
      const scored = ids
        .map((id) => ({ p: providers.find((x) => x.id === id), v: m.value(providers.find((x) => x.id === id)) }))
        .filter((x) => x.v !== undefined);
      return scored.sort((a, b) => (m.higherIsBetter ? b.v! - a.v! : a.v! - b.v!));
    };
    const clean = (kind: ClaimKind, text: string, where = 'fixture', providerId?: string) =>
      CHECKERS[kind]({ where, text, providerId });

    it('the provider with the most locations, said so; its count of locations; the others as "other" providers', () => {
      const [first, second] = best('locations');
      expect(
        clean('comparison', `${first.p.name} has the most locations of the ${providers.length} providers we track.`),
      ).toEqual([]);
      expect(clean('comparison', `${first.p.name} has more locations than ${second.p.name}.`)).toEqual([]);
      expect(clean('comparison', `${second.p.name} has more locations than ${first.p.name}.`)).not.toEqual([]);
      expect(
        clean('count', `${first.p.datacenters.length} locations, the widest spread here.`, 'fixture', first.p.id),
      ).toEqual([]);
      expect(
        clean(
          'count',
          `${first.p.name} covers more cities than the ${providers.length - 1} other providers we review.`,
        ),
      ).toEqual([]);
    });

    it('the cheapest dedicated entry among the US-based providers, said so; a comparison guide counting its own providers', () => {
      const us = providers.filter((p) => p.headquarters.country === 'US').map((p) => p.id);
      const [cheapest] = best('dedicatedEntry', us);
      expect(
        clean('comparison', `${cheapest.p.name} has the cheapest dedicated entry plan among the US-based clouds here.`),
      ).toEqual([]);
      const three = us.slice(0, 3);
      expect(
        clean(
          'count',
          `All ${['zero', 'one', 'two', 'three'][three.length]} sell dedicated plans.`,
          `guides/${three.join('-vs-')}.md`,
        ),
      ).toEqual([]);
    });

    it('an existence claim about a size larger than any plan', () => {
      const largest = Math.max(
        ...providers.flatMap((p) =>
          p.plans.map((plan: any) => Number(/(\d+)/.exec(plan.ram)![1]) * (/TB/.test(plan.ram) ? 1000 : 1)),
        ),
      );
      expect(clean('existence', `No VPS in the dataset has ${largest * 2} GB of RAM.`)).toEqual([]);
      expect(clean('existence', `No VPS in the dataset has ${largest} GB of RAM.`)).not.toEqual([]);
    });

    it('a plan identifier the data lists as sold, and a retired one the sentence calls retired', () => {
      const hetzner = providers.find((p) => p.id === 'hetzner');
      const sold = hetzner.plans.find(
        (plan: any) => !hetzner.planLines.find((l: any) => l.id === plan.line).discontinued,
      );
      expect(clean('retired-id', `hcloud server create --type ${sold.name.toLowerCase()} --image debian-12`)).toEqual(
        [],
      );
      expect(
        clean('retired-id', `The cx11 was retired long ago; hcloud server create --type ${sold.name.toLowerCase()}.`),
      ).toEqual([]);
    });
  });
});
