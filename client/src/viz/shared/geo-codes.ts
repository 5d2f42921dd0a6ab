// Region codes the map chart types key their data by: pure tables, kept apart from the map shapes and
// ECharts' map parts (shared/geo.ts), which load only with a map chart.

/** US states: postal code by FIPS code (us-atlas keys states by FIPS). */
export const US_STATES: Record<string, [string, string]> = {
  '01': ['AL', 'Alabama'], '02': ['AK', 'Alaska'], '04': ['AZ', 'Arizona'], '05': ['AR', 'Arkansas'], '06': ['CA', 'California'], '08': ['CO', 'Colorado'],
  '09': ['CT', 'Connecticut'], '10': ['DE', 'Delaware'], '11': ['DC', 'District of Columbia'], '12': ['FL', 'Florida'], '13': ['GA', 'Georgia'], '15': ['HI', 'Hawaii'],
  '16': ['ID', 'Idaho'], '17': ['IL', 'Illinois'], '18': ['IN', 'Indiana'], '19': ['IA', 'Iowa'], '20': ['KS', 'Kansas'], '21': ['KY', 'Kentucky'],
  '22': ['LA', 'Louisiana'], '23': ['ME', 'Maine'], '24': ['MD', 'Maryland'], '25': ['MA', 'Massachusetts'], '26': ['MI', 'Michigan'], '27': ['MN', 'Minnesota'],
  '28': ['MS', 'Mississippi'], '29': ['MO', 'Missouri'], '30': ['MT', 'Montana'], '31': ['NE', 'Nebraska'], '32': ['NV', 'Nevada'], '33': ['NH', 'New Hampshire'],
  '34': ['NJ', 'New Jersey'], '35': ['NM', 'New Mexico'], '36': ['NY', 'New York'], '37': ['NC', 'North Carolina'], '38': ['ND', 'North Dakota'], '39': ['OH', 'Ohio'],
  '40': ['OK', 'Oklahoma'], '41': ['OR', 'Oregon'], '42': ['PA', 'Pennsylvania'], '44': ['RI', 'Rhode Island'], '45': ['SC', 'South Carolina'], '46': ['SD', 'South Dakota'],
  '47': ['TN', 'Tennessee'], '48': ['TX', 'Texas'], '49': ['UT', 'Utah'], '50': ['VT', 'Vermont'], '51': ['VA', 'Virginia'], '53': ['WA', 'Washington'],
  '54': ['WV', 'West Virginia'], '55': ['WI', 'Wisconsin'], '56': ['WY', 'Wyoming'],
};

/** A US state value as written in data ('CA', 'US-CA' or 'California') → its postal code, or null. */
export function usStateCode(value: unknown): string | null {
  const text = String(value ?? '').trim();
  const code = text.toUpperCase().replace(/^US-/, '');
  for (const [postal, name] of Object.values(US_STATES)) if (postal === code || name.toLowerCase() === text.toLowerCase()) return postal;
  return null;
}

/** The prefix of the map names the Country Map registers for Superset's countries: 'country:france'. */
export const COUNTRY_MAP_PREFIX = 'country:';

const regionNames = new Map<string, Map<string, string>>();

/** Keeps the names of a registered map's regions by code, for regionName. */
export function setRegionNames(map: string, names: Iterable<[string, string]>): void {
  regionNames.set(map, new Map(names));
}

/**
 * A region's name by the code its map keys it by ('Paris' for map 'country:france' and 'FR-75', 'California' for
 * 'usa' and 'CA'), or undefined when the map has no such region (or, other than 'usa', is not registered yet).
 */
export function regionName(map: string, code: string): string | undefined {
  if (map === 'usa') return Object.values(US_STATES).find(([postal]) => postal === code)?.[1];
  return regionNames.get(map)?.get(code);
}

/**
 * A region's code as the Country Map keys its data for a country: a US state's postal code for 'usa' (usStateCode),
 * and for the other countries the ISO 3166-2 code as written, trimmed and in capitals ('fr-75 ' → 'FR-75'), as
 * Superset matches it against each region's ISO code; null for a value that is no such code ('other').
 */
export function countryRegionCode(country: string, value: unknown): string | null {
  if (country === 'usa') return usStateCode(value);
  const code = String(value ?? '').trim().toUpperCase();
  return /^[A-Z]{2}-\S+$/.test(code) ? code : null;
}
