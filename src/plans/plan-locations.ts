import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import type { PlanLine } from '../dataset/dto/plan-line.dto.js';
import type { ProviderRecord } from '../dataset/dto/provider.dto.js';
import { didYouMean } from '../common/suggest.js';
import { countryCodeOfName } from './country-names.js';

/** Where plans must be sold: a data-centre city, a country, or a city in a country (normalized). */
export interface LocationFilter {
  /** A city as the providers' `datacenters` spell it, e.g. "São Paulo". */
  location?: string;
  /** ISO 3166-1 alpha-2 code, upper case. */
  country?: string;
}

/** One data centre of the filter where a plan's line is sold, with what its price is there. */
export interface PlanPlace {
  city: string;
  /** The listed price times this is the price there; null when the price there is not in the dataset. */
  priceFactor: number | null;
  /** The dataset's note on the regional price, when the city has one. */
  note?: string;
}

/** Case, accents and surrounding space do not matter: "sao paulo" is "São Paulo". */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase();

/**
 * Checks and normalizes a location and country against the data centres of every provider. Throws
 * InvalidArgumentError naming the valid values for an unknown city or country, or a city not in the country.
 */
export function resolveLocation(
  providers: readonly ProviderRecord[],
  location?: string,
  country?: string,
): LocationFilter | undefined {
  if (location === undefined && country === undefined) return undefined;
  const datacenters = providers.flatMap((p) => p.datacenters);
  const countries = [...new Set(datacenters.map((d) => d.country))].sort();
  const filter: LocationFilter = {};
  if (country !== undefined) {
    // A code in any case, or a country's name ("United Kingdom", "Deutschland") as country-names.ts knows it.
    const code = countries.includes(country.trim().toUpperCase())
      ? country.trim().toUpperCase()
      : (countryCodeOfName(country) ?? country.trim().toUpperCase());
    if (!countries.includes(code)) {
      throw new InvalidArgumentError(
        'country',
        `No provider has a data centre in "${country.slice(0, 10)}".${countryHint(country, countries)} Use an ISO 3166-1 alpha-2 code of a country with one: ${countries.join(', ')}.`,
      );
    }
    filter.country = code;
  }
  if (location !== undefined) {
    const cities = [...new Set(datacenters.map((d) => d.city))].sort((a, b) => a.localeCompare(b));
    const city = cities.find((c) => fold(c) === fold(location));
    if (!city) {
      const named =
        countryCodeOfName(location) ??
        (countries.includes(location.trim().toUpperCase()) ? location.trim().toUpperCase() : undefined);
      const hint =
        named && countries.includes(named)
          ? ` "${location.slice(0, 64)}" is a country: pass country: "${named}".`
          : didYouMean(location, cities);
      throw new InvalidArgumentError(
        'location',
        `No provider has a data centre in "${location.slice(0, 64)}".${hint} Use a city (call describe_filters for each provider's): ${cities.join(', ')}; or pass country instead.`,
      );
    }
    const cityCountries = [...new Set(datacenters.filter((d) => d.city === city).map((d) => d.country))];
    if (filter.country && !cityCountries.includes(filter.country)) {
      throw new InvalidArgumentError(
        'location',
        `${city} is in ${cityCountries.join(', ')}, not ${filter.country}; pass one of location and country, or both for the same place.`,
      );
    }
    filter.location = city;
  }
  return filter;
}

/**
 * The data centres in the filter where a plan of `line` is sold: the provider's data centres there,
 * narrowed to the line's own list where the data confirms one, each with its regional price factor.
 */
export function placesOf(provider: ProviderRecord, line: PlanLine, filter: LocationFilter): PlanPlace[] {
  return provider.datacenters
    .filter(
      (d) => (!filter.location || d.city === filter.location) && (!filter.country || d.country === filter.country),
    )
    .filter((d) => !line.datacenters || line.datacenters.includes(d.city))
    .map((d) => {
      const regional = line.regionalPrices?.find((r) => r.datacenters.includes(d.city));
      return regional
        ? { city: d.city, priceFactor: regional.priceFactor, note: regional.note }
        : { city: d.city, priceFactor: 1 };
    });
}

/** Where a line is sold at all: its cities, and their countries, for saying what a plan misses. */
export function soldWhere(provider: ProviderRecord, line: PlanLine): { cities: string[]; countries: string[] } {
  const sold = provider.datacenters.filter((d) => !line.datacenters || line.datacenters.includes(d.city));
  return { cities: sold.map((d) => d.city), countries: [...new Set(sold.map((d) => d.country))].sort() };
}

/** Where a line is sold, said briefly: "all" the provider's data centres (less `notSoldIn`, when fewer are left out than kept), or its cities. */
export interface SoldIn {
  soldIn: 'all' | string[];
  notSoldIn?: string[];
}

/** The line's cities as an answer names them: "all", "all" but a few, or the list. */
export function soldInOf(provider: ProviderRecord, line: PlanLine): SoldIn {
  const { cities } = soldWhere(provider, line);
  const missing = provider.datacenters.map((d) => d.city).filter((c) => !cities.includes(c));
  if (missing.length === 0) return { soldIn: 'all' };
  return missing.length < cities.length ? { soldIn: 'all', notSoldIn: missing } : { soldIn: cities };
}

/** " Did you mean ..." for a country written as a name or a near miss ("Germany", "UK" -> GB), or nothing. */
export function countryHint(input: string, valid: readonly string[]): string {
  const code = countryCodeOfName(input);
  if (code)
    return valid.includes(code)
      ? ` Did you mean "${code}"?`
      : ` "${input.slice(0, 32)}" is ${code}, where no provider has a data centre.`;
  return didYouMean(input, valid);
}

/**
 * One place argument that may be a city or a country (recommend_vps_for_workload's `location`): a
 * data-centre city as find_vps_plans matches it (any case, accents optional), else a country code or
 * name with a data centre ("DE", "Germany"). Throws InvalidArgumentError with a did-you-mean otherwise.
 */
export function resolvePlace(providers: readonly ProviderRecord[], place: string): LocationFilter {
  const datacenters = providers.flatMap((p) => p.datacenters);
  const cities = [...new Set(datacenters.map((d) => d.city))].sort((a, b) => a.localeCompare(b));
  const countries = [...new Set(datacenters.map((d) => d.country))].sort();
  const city = cities.find((c) => fold(c) === fold(place));
  if (city) return { location: city };
  const code = countries.includes(place.trim().toUpperCase()) ? place.trim().toUpperCase() : countryCodeOfName(place);
  if (code && countries.includes(code)) return { country: code };
  const hint = code
    ? ` "${place.slice(0, 32)}" is ${code}, where no provider has a data centre.`
    : didYouMean(place, [...cities, ...countries]);
  throw new InvalidArgumentError(
    'location',
    `No provider has a data centre in "${place.slice(0, 64)}".${hint} Use a city (${cities.join(', ')}) or a country code (${countries.join(', ')}); describe_filters lists each provider's.`,
  );
}

/** Plans sold where asked at a price the dataset does not have, by provider and line, with the dataset's note. */
export interface UnpricedAtLocation {
  providerId: string;
  line: string;
  plans: number;
  datacenters: string[];
  note: string;
}

/** Counts one plan sold at an unknown price in `places` into `unpriced`, by its provider and line. */
export function tallyUnpriced(
  unpriced: Map<string, UnpricedAtLocation>,
  plan: { providerId: string; lineId: string },
  places: readonly PlanPlace[],
): void {
  const key = `${plan.providerId} ${plan.lineId}`;
  const entry = unpriced.get(key);
  if (entry) entry.plans += 1;
  else
    unpriced.set(key, {
      providerId: plan.providerId,
      line: plan.lineId,
      plans: 1,
      datacenters: places.map((p) => p.city),
      note: places.find((p) => p.note)?.note ?? 'The price there is not in the dataset.',
    });
}
