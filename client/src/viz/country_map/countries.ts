import { countryRegionCode } from '../shared/geo-codes';

/**
 * The countries Superset's Country Map offers, by their `select_country` keys: the names of the shape files in its
 * npm package (@superset-ui/legacy-plugin-chart-country-map, read at build by country-shapes.build.ts; a unit test
 * keeps this list equal to them). 'usa' draws from us-atlas, as before the other countries came.
 */
export const COUNTRY_MAP_KEYS = [
  'afghanistan', 'aland', 'albania', 'algeria', 'american_samoa', 'andorra', 'angola', 'anguilla',
  'antarctica', 'antigua_and_barbuda', 'argentina', 'armenia', 'australia', 'austria', 'azerbaijan', 'bahrain',
  'bangladesh', 'barbados', 'belarus', 'belgium', 'belize', 'benin', 'bermuda', 'bhutan',
  'bolivia', 'bosnia_and_herzegovina', 'botswana', 'brazil', 'brunei', 'bulgaria', 'burkina_faso', 'burundi',
  'cambodia', 'cameroon', 'canada', 'cape_verde', 'central_african_republic', 'chad', 'chile', 'china',
  'colombia', 'comoros', 'cook_islands', 'costa_rica', 'croatia', 'cuba', 'cyprus', 'czech_republic',
  'democratic_republic_of_the_congo', 'denmark', 'djibouti', 'dominica', 'dominican_republic', 'ecuador', 'egypt', 'el_salvador',
  'equatorial_guinea', 'eritrea', 'estonia', 'ethiopia', 'fiji', 'finland', 'france', 'france_regions',
  'french_polynesia', 'gabon', 'gambia', 'germany', 'ghana', 'greece', 'greenland', 'grenada',
  'guatemala', 'guinea', 'guyana', 'haiti', 'honduras', 'hungary', 'iceland', 'india',
  'indonesia', 'iran', 'israel', 'italy', 'italy_regions', 'japan', 'jordan', 'kazakhstan',
  'kenya', 'korea', 'kuwait', 'kyrgyzstan', 'laos', 'latvia', 'lebanon', 'lesotho',
  'liberia', 'libya', 'liechtenstein', 'lithuania', 'luxembourg', 'macedonia', 'madagascar', 'malawi',
  'malaysia', 'maldives', 'mali', 'malta', 'marshall_islands', 'mauritania', 'mauritius', 'mexico',
  'moldova', 'mongolia', 'montenegro', 'montserrat', 'morocco', 'mozambique', 'myanmar', 'namibia',
  'nauru', 'nepal', 'netherlands', 'new_caledonia', 'new_zealand', 'nicaragua', 'niger', 'nigeria',
  'northern_mariana_islands', 'norway', 'oman', 'pakistan', 'palau', 'panama', 'papua_new_guinea', 'paraguay',
  'peru', 'philippines', 'philippines_regions', 'poland', 'portugal', 'qatar', 'romania', 'russia',
  'rwanda', 'saint_lucia', 'saint_pierre_and_miquelon', 'saint_vincent_and_the_grenadines', 'samoa', 'san_marino', 'sao_tome_and_principe', 'saudi_arabia',
  'senegal', 'seychelles', 'sierra_leone', 'singapore', 'slovakia', 'slovenia', 'solomon_islands', 'somalia',
  'south_africa', 'spain', 'sri_lanka', 'sudan', 'suriname', 'sweden', 'switzerland', 'syria',
  'taiwan', 'tajikistan', 'tanzania', 'thailand', 'the_bahamas', 'timorleste', 'togo', 'tonga',
  'trinidad_and_tobago', 'tunisia', 'turkey', 'turkey_regions', 'turkmenistan', 'turks_and_caicos_islands', 'uganda', 'uk',
  'ukraine', 'united_arab_emirates', 'united_states_minor_outlying_islands', 'united_states_virgin_islands', 'uruguay', 'usa', 'uzbekistan', 'vanuatu',
  'venezuela', 'vietnam', 'wallis_and_futuna', 'yemen', 'zambia', 'zimbabwe',
] as const;

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
  return (COUNTRY_MAP_KEYS as readonly string[]).includes(resolved) ? resolved : null;
}
