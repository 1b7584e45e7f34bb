/**
 * English names and common short forms of countries, by ISO 3166-1 alpha-2 code: the countries with a
 * data centre in the dataset and the EU/UK ones whose VAT it records (public facts, written here).
 * Read wherever a tool takes a country: a caller may write a name ("Germany" -> DE, "UK" -> GB).
 */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  AT: ['Austria', 'Österreich'],
  AU: ['Australia'],
  BE: ['Belgium'],
  BG: ['Bulgaria'],
  BR: ['Brazil', 'Brasil'],
  CA: ['Canada'],
  CH: ['Switzerland', 'Schweiz', 'Suisse'],
  CL: ['Chile'],
  CY: ['Cyprus'],
  CZ: ['Czechia', 'Czech Republic'],
  DE: ['Germany', 'Deutschland', 'GER'],
  DK: ['Denmark', 'Danmark'],
  EE: ['Estonia'],
  ES: ['Spain', 'España'],
  FI: ['Finland', 'Suomi'],
  FR: ['France'],
  GB: ['United Kingdom', 'UK', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  GR: ['Greece', 'EL'],
  HR: ['Croatia'],
  HU: ['Hungary'],
  ID: ['Indonesia'],
  IE: ['Ireland', 'Éire'],
  IL: ['Israel'],
  IN: ['India'],
  IT: ['Italy', 'Italia'],
  JP: ['Japan'],
  KR: ['South Korea', 'Korea'],
  LT: ['Lithuania'],
  LU: ['Luxembourg'],
  LV: ['Latvia'],
  MT: ['Malta'],
  MX: ['Mexico', 'México'],
  NL: ['Netherlands', 'The Netherlands', 'Holland', 'Nederland'],
  PL: ['Poland', 'Polska'],
  PT: ['Portugal'],
  RO: ['Romania'],
  SE: ['Sweden', 'Sverige'],
  SG: ['Singapore'],
  SI: ['Slovenia'],
  SK: ['Slovakia'],
  US: ['United States', 'USA', 'America', 'United States of America'],
  ZA: ['South Africa'],
};

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const BY_NAME = new Map(
  Object.entries(NAMES).flatMap(([code, names]) => names.map((name) => [fold(name), code] as const)),
);

/** The ISO code a country name or common short form stands for ("Germany", "UK"), or undefined. */
export function countryCodeOfName(name: string): string | undefined {
  return BY_NAME.get(fold(name));
}
