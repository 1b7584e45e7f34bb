import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Hand-written prose of a generated review. */
export interface ReviewEditorial {
  published: string;
  keywords: string[];
  whoItSuits: string;
  performance: string;
  dataCenters: string;
  support: string;
  wouldChange: string;
}

export interface ComparisonEditorial {
  slug: string;
  providers: string[];
  title: string;
  description: string;
  published: string;
  author: string;
  keywords: string[];
  intro: string;
  keyDifferences: string;
  verdict: string;
}

export type BestOfCriteria =
  | { kind: 'budget'; value: number }
  | { kind: 'region'; value: string }
  | { kind: 'feature'; value: string }
  | { kind: 'rating'; value: 'performance' | 'value' | 'support' | 'easeOfUse' | 'features' }
  | { kind: 'dedicatedCpu'; value: true }
  | { kind: 'ramPerDollar'; value: number }
  | { kind: 'nvme'; value: true }
  | { kind: 'traffic'; value: true };

export interface BestOfEditorial {
  slug: string;
  title: string;
  description: string;
  published: string;
  author: string;
  keywords: string[];
  criteria: BestOfCriteria;
  intro: string;
  advice: string;
}

export interface AlternativesEditorial {
  published: string;
  author: string;
  keywords: string[];
  whyLook: string;
  picks: { id: string; why: string }[];
}

export interface Editorial {
  reviews: Record<string, ReviewEditorial>;
  comparisons: ComparisonEditorial[];
  bestOf: BestOfEditorial[];
  alternatives: Record<string, AlternativesEditorial>;
}

/** Reads the editorial inputs of `<dataDir>/editorial/`. */
export async function readEditorial(dataDir: string): Promise<Editorial> {
  const read = async <T>(name: string): Promise<T> =>
    JSON.parse(await readFile(join(dataDir, 'editorial', name), 'utf8')) as T;
  const [reviews, comparisons, bestOf, alternatives] = await Promise.all([
    read<Editorial['reviews']>('reviews.json'),
    read<{ comparisons: ComparisonEditorial[] }>('comparisons.json'),
    read<{ lists: BestOfEditorial[] }>('best-of.json'),
    read<Editorial['alternatives']>('alternatives.json'),
  ]);
  return { reviews, comparisons: comparisons.comparisons, bestOf: bestOf.lists, alternatives };
}
