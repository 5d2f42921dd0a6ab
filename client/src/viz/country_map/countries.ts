import shapeKeys from 'virtual:country-map-keys';
import { countryRegionCode } from '../shared/geo-codes';

/**
 * The countries Superset's Country Map offers, by their `select_country` keys: the names of the shape files in its
 * npm package (@superset-ui/legacy-plugin-chart-country-map), as the build reads them (country-shapes.build.ts), so
 * the list cannot drift from the package. 'usa' draws from us-atlas, as before the other countries came.
 */
export const COUNTRY_MAP_KEYS: readonly string[] = shapeKeys;

/** Keys that Superset's other versions store for a country whose shapes come under another key here. */
const ALIASES: Record<string, string> = {
  // Superset's later 'France (with overseas)': the package's 'france' has the overseas departments as insets.
  france_overseas: 'france',
  // Superset's earlier key for Sri Lanka.
  srilanka: 'sri_lanka',
};

const LABELS: Record<string, string> = {
  uk: 'UK',
  usa: 'USA',
  france_regions: 'France (regions)',
  italy_regions: 'Italy (regions)',
  philippines_regions: 'Philippines (regions)',
  turkey_regions: 'Turkey (regions)',
  timorleste: 'Timor-Leste',
};

const SMALL_WORDS = new Set(['and', 'of', 'the']);

/** A key's label as the Country control shows it: Superset's ('uk' → 'UK', 'south_africa' → 'South Africa'), with 'of', 'and' and 'the' in small letters mid-name. */
export function countryLabel(key: string): string {
  return LABELS[key] ?? key.split('_').map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');
}

/** The Country control's choices: every country with shapes, by label. */
export const COUNTRY_MAP_COUNTRIES: Array<[string, string]> = COUNTRY_MAP_KEYS.map((k): [string, string] => [k, countryLabel(k)]).sort((a, b) => a[1].localeCompare(b[1]));

/**
 * Current ISO 3166-2 codes whose region Superset's shapes key by the code it had before (ISO changed them), by
 * country: a row with either code colours the region. Each pair is checked by the region's name in both.
 */
const CODE_CHANGES: Record<string, Record<string, string>> = {
  // Paris (FR-75C since 2019) and the overseas departments (numbered since 2016), drawn as insets.
  france: { 'FR-75C': 'FR-75', 'FR-971': 'FR-GP', 'FR-972': 'FR-MQ', 'FR-973': 'FR-GF', 'FR-974': 'FR-RE', 'FR-976': 'FR-YT' },
  india: { 'IN-CG': 'IN-CT', 'IN-OD': 'IN-OR', 'IN-TS': 'IN-TG', 'IN-UK': 'IN-UT' },
  // Poland's voivodeships, numbered since 2018.
  poland: {
    'PL-02': 'PL-DS', 'PL-04': 'PL-KP', 'PL-06': 'PL-LU', 'PL-08': 'PL-LB', 'PL-10': 'PL-LD', 'PL-12': 'PL-MA', 'PL-14': 'PL-MZ', 'PL-16': 'PL-OP',
    'PL-18': 'PL-PK', 'PL-20': 'PL-PD', 'PL-22': 'PL-PM', 'PL-24': 'PL-SL', 'PL-26': 'PL-SK', 'PL-28': 'PL-WN', 'PL-30': 'PL-WP', 'PL-32': 'PL-ZP',
  },
  south_africa: { 'ZA-GP': 'ZA-GT', 'ZA-KZN': 'ZA-NL' },
  spain: { 'ES-CB': 'ES-S', 'ES-RI': 'ES-LO' },
};

/**
 * A row's region code for a country: its ISO 3166-2 code as the country's shapes key it (countryRegionCode, then
 * Superset's earlier code where ISO has changed it: 'PL-24' → 'PL-SL'), or null for a value that is no code.
 */
export function regionCodeOf(country: string, value: unknown): string | null {
  const code = countryRegionCode(country, value);
  return code && (CODE_CHANGES[country]?.[code] ?? code);
}

/**
 * The key whose shapes draw a stored `select_country`: Superset's keys, also as its earliest versions stored them
 * ('France', 'USA'), and the aliases above; null for a country with no shapes.
 */
export function countryKey(selectCountry: unknown): string | null {
  const key = String(selectCountry ?? 'usa').trim().toLowerCase().replace(/\s+/g, '_');
  const resolved = ALIASES[key] ?? key;
  return COUNTRY_MAP_KEYS.includes(resolved) ? resolved : null;
}
