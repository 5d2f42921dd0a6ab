// wb_health_population: World Bank "Health, Nutrition and Population" style indicators per country
// and year (Superset's example dataset of the same name; indicator codes with '.' replaced by '_').
// Synthetic and deterministic: the country list (ISO3 code, World Bank name, region, income group,
// approximate 2014 population) is real; indicator paths are smooth model curves driven by a
// per-country development trajectory, with per-country parameters seeded from the country code.
// Aggregate rows (World, the seven regions, income groups) are derived from the country rows.

import { type ExampleColumn, type GeneratedTable, clamp, fnv1a, gaussian, mulberry32, roundTo, smoothstep, yearStartMs } from './model';

export const WB_FIRST_YEAR = 1960;
export const WB_LAST_YEAR = 2014;

export const WB_REGIONS = {
  EAS: 'East Asia & Pacific',
  ECS: 'Europe & Central Asia',
  LCN: 'Latin America & Caribbean',
  MEA: 'Middle East & North Africa',
  NAC: 'North America',
  SAS: 'South Asia',
  SSF: 'Sub-Saharan Africa',
} as const;
type RegionCode = keyof typeof WB_REGIONS;

/** World Bank income groups (FY2015 classification, approximately). */
type Income = 'H' | 'UM' | 'LM' | 'L';
const INCOME_AGGREGATES: Record<Income, [string, string]> = {
  H: ['HIC', 'High income'],
  UM: ['UMC', 'Upper middle income'],
  LM: ['LMC', 'Lower middle income'],
  L: ['LIC', 'Low income'],
};

/** [ISO3 code, World Bank country name, region, income group, population 2014 (millions)] */
type Country = readonly [string, string, RegionCode, Income, number];

export const WB_COUNTRIES: readonly Country[] = [
  // East Asia & Pacific
  ['ASM', 'American Samoa', 'EAS', 'UM', 0.055], ['AUS', 'Australia', 'EAS', 'H', 23.5], ['BRN', 'Brunei Darussalam', 'EAS', 'H', 0.41],
  ['KHM', 'Cambodia', 'EAS', 'L', 15.3], ['CHN', 'China', 'EAS', 'UM', 1364.3], ['FJI', 'Fiji', 'EAS', 'UM', 0.87],
  ['PYF', 'French Polynesia', 'EAS', 'H', 0.28], ['GUM', 'Guam', 'EAS', 'H', 0.16], ['HKG', 'Hong Kong SAR, China', 'EAS', 'H', 7.23],
  ['IDN', 'Indonesia', 'EAS', 'LM', 254.5], ['JPN', 'Japan', 'EAS', 'H', 127.1], ['KIR', 'Kiribati', 'EAS', 'LM', 0.11],
  ['PRK', "Korea, Dem. People's Rep.", 'EAS', 'L', 25.0], ['KOR', 'Korea, Rep.', 'EAS', 'H', 50.4], ['LAO', 'Lao PDR', 'EAS', 'LM', 6.7],
  ['MAC', 'Macao SAR, China', 'EAS', 'H', 0.58], ['MYS', 'Malaysia', 'EAS', 'UM', 30.2], ['MHL', 'Marshall Islands', 'EAS', 'UM', 0.053],
  ['FSM', 'Micronesia, Fed. Sts.', 'EAS', 'LM', 0.104], ['MNG', 'Mongolia', 'EAS', 'LM', 2.9], ['MMR', 'Myanmar', 'EAS', 'LM', 53.4],
  ['NCL', 'New Caledonia', 'EAS', 'H', 0.27], ['NZL', 'New Zealand', 'EAS', 'H', 4.5], ['MNP', 'Northern Mariana Islands', 'EAS', 'H', 0.055],
  ['PLW', 'Palau', 'EAS', 'UM', 0.021], ['PNG', 'Papua New Guinea', 'EAS', 'LM', 7.5], ['PHL', 'Philippines', 'EAS', 'LM', 99.1],
  ['WSM', 'Samoa', 'EAS', 'LM', 0.19], ['SGP', 'Singapore', 'EAS', 'H', 5.47], ['SLB', 'Solomon Islands', 'EAS', 'LM', 0.57],
  ['THA', 'Thailand', 'EAS', 'UM', 68.0], ['TLS', 'Timor-Leste', 'EAS', 'LM', 1.2], ['TON', 'Tonga', 'EAS', 'UM', 0.105],
  ['TUV', 'Tuvalu', 'EAS', 'UM', 0.01], ['VUT', 'Vanuatu', 'EAS', 'LM', 0.26], ['VNM', 'Vietnam', 'EAS', 'LM', 90.7],
  // Europe & Central Asia
  ['ALB', 'Albania', 'ECS', 'UM', 2.89], ['AND', 'Andorra', 'ECS', 'H', 0.079], ['ARM', 'Armenia', 'ECS', 'LM', 3.0],
  ['AUT', 'Austria', 'ECS', 'H', 8.55], ['AZE', 'Azerbaijan', 'ECS', 'UM', 9.5], ['BLR', 'Belarus', 'ECS', 'UM', 9.47],
  ['BEL', 'Belgium', 'ECS', 'H', 11.2], ['BIH', 'Bosnia and Herzegovina', 'ECS', 'UM', 3.8], ['BGR', 'Bulgaria', 'ECS', 'UM', 7.22],
  ['CHI', 'Channel Islands', 'ECS', 'H', 0.16], ['HRV', 'Croatia', 'ECS', 'H', 4.24], ['CYP', 'Cyprus', 'ECS', 'H', 1.15],
  ['CZE', 'Czech Republic', 'ECS', 'H', 10.5], ['DNK', 'Denmark', 'ECS', 'H', 5.64], ['EST', 'Estonia', 'ECS', 'H', 1.31],
  ['FRO', 'Faroe Islands', 'ECS', 'H', 0.049], ['FIN', 'Finland', 'ECS', 'H', 5.46], ['FRA', 'France', 'ECS', 'H', 66.3],
  ['GEO', 'Georgia', 'ECS', 'LM', 3.72], ['DEU', 'Germany', 'ECS', 'H', 80.9], ['GIB', 'Gibraltar', 'ECS', 'H', 0.033],
  ['GRC', 'Greece', 'ECS', 'H', 10.9], ['GRL', 'Greenland', 'ECS', 'H', 0.056], ['HUN', 'Hungary', 'ECS', 'UM', 9.86],
  ['ISL', 'Iceland', 'ECS', 'H', 0.33], ['IRL', 'Ireland', 'ECS', 'H', 4.6], ['IMN', 'Isle of Man', 'ECS', 'H', 0.087],
  ['ITA', 'Italy', 'ECS', 'H', 60.8], ['KAZ', 'Kazakhstan', 'ECS', 'UM', 17.3], ['XKX', 'Kosovo', 'ECS', 'LM', 1.82],
  ['KGZ', 'Kyrgyz Republic', 'ECS', 'LM', 5.84], ['LVA', 'Latvia', 'ECS', 'H', 1.99], ['LIE', 'Liechtenstein', 'ECS', 'H', 0.037],
  ['LTU', 'Lithuania', 'ECS', 'H', 2.93], ['LUX', 'Luxembourg', 'ECS', 'H', 0.556], ['MKD', 'Macedonia, FYR', 'ECS', 'UM', 2.07],
  ['MDA', 'Moldova', 'ECS', 'LM', 3.56], ['MCO', 'Monaco', 'ECS', 'H', 0.038], ['MNE', 'Montenegro', 'ECS', 'UM', 0.62],
  ['NLD', 'Netherlands', 'ECS', 'H', 16.9], ['NOR', 'Norway', 'ECS', 'H', 5.14], ['POL', 'Poland', 'ECS', 'H', 38.0],
  ['PRT', 'Portugal', 'ECS', 'H', 10.4], ['ROU', 'Romania', 'ECS', 'UM', 19.9], ['RUS', 'Russian Federation', 'ECS', 'H', 143.8],
  ['SMR', 'San Marino', 'ECS', 'H', 0.033], ['SRB', 'Serbia', 'ECS', 'UM', 7.13], ['SVK', 'Slovak Republic', 'ECS', 'H', 5.42],
  ['SVN', 'Slovenia', 'ECS', 'H', 2.06], ['ESP', 'Spain', 'ECS', 'H', 46.5], ['SWE', 'Sweden', 'ECS', 'H', 9.7],
  ['CHE', 'Switzerland', 'ECS', 'H', 8.19], ['TJK', 'Tajikistan', 'ECS', 'L', 8.3], ['TUR', 'Turkey', 'ECS', 'UM', 77.0],
  ['TKM', 'Turkmenistan', 'ECS', 'UM', 5.3], ['UKR', 'Ukraine', 'ECS', 'LM', 45.3], ['GBR', 'United Kingdom', 'ECS', 'H', 64.6],
  ['UZB', 'Uzbekistan', 'ECS', 'LM', 30.8],
  // Latin America & Caribbean
  ['ATG', 'Antigua and Barbuda', 'LCN', 'H', 0.09], ['ARG', 'Argentina', 'LCN', 'UM', 42.7], ['ABW', 'Aruba', 'LCN', 'H', 0.103],
  ['BHS', 'Bahamas, The', 'LCN', 'H', 0.38], ['BRB', 'Barbados', 'LCN', 'H', 0.284], ['BLZ', 'Belize', 'LCN', 'UM', 0.35],
  ['BOL', 'Bolivia', 'LCN', 'LM', 10.6], ['BRA', 'Brazil', 'LCN', 'UM', 204.2], ['VGB', 'British Virgin Islands', 'LCN', 'H', 0.029],
  ['CYM', 'Cayman Islands', 'LCN', 'H', 0.059], ['CHL', 'Chile', 'LCN', 'H', 17.6], ['COL', 'Colombia', 'LCN', 'UM', 47.8],
  ['CRI', 'Costa Rica', 'LCN', 'UM', 4.76], ['CUB', 'Cuba', 'LCN', 'UM', 11.4], ['CUW', 'Curacao', 'LCN', 'H', 0.156],
  ['DMA', 'Dominica', 'LCN', 'UM', 0.072], ['DOM', 'Dominican Republic', 'LCN', 'UM', 10.4], ['ECU', 'Ecuador', 'LCN', 'UM', 16.0],
  ['SLV', 'El Salvador', 'LCN', 'LM', 6.1], ['GRD', 'Grenada', 'LCN', 'UM', 0.106], ['GTM', 'Guatemala', 'LCN', 'LM', 16.0],
  ['GUY', 'Guyana', 'LCN', 'LM', 0.76], ['HTI', 'Haiti', 'LCN', 'L', 10.6], ['HND', 'Honduras', 'LCN', 'LM', 8.8],
  ['JAM', 'Jamaica', 'LCN', 'UM', 2.72], ['MEX', 'Mexico', 'LCN', 'UM', 125.4], ['NIC', 'Nicaragua', 'LCN', 'LM', 6.0],
  ['PAN', 'Panama', 'LCN', 'UM', 3.87], ['PRY', 'Paraguay', 'LCN', 'UM', 6.55], ['PER', 'Peru', 'LCN', 'UM', 30.9],
  ['PRI', 'Puerto Rico', 'LCN', 'H', 3.53], ['SXM', 'Sint Maarten (Dutch part)', 'LCN', 'H', 0.038], ['KNA', 'St. Kitts and Nevis', 'LCN', 'H', 0.055],
  ['LCA', 'St. Lucia', 'LCN', 'UM', 0.18], ['MAF', 'St. Martin (French part)', 'LCN', 'H', 0.031], ['VCT', 'St. Vincent and the Grenadines', 'LCN', 'UM', 0.109],
  ['SUR', 'Suriname', 'LCN', 'UM', 0.54], ['TTO', 'Trinidad and Tobago', 'LCN', 'H', 1.35], ['TCA', 'Turks and Caicos Islands', 'LCN', 'H', 0.034],
  ['URY', 'Uruguay', 'LCN', 'H', 3.42], ['VEN', 'Venezuela, RB', 'LCN', 'UM', 30.7], ['VIR', 'Virgin Islands (U.S.)', 'LCN', 'H', 0.104],
  // Middle East & North Africa
  ['DZA', 'Algeria', 'MEA', 'UM', 39.1], ['BHR', 'Bahrain', 'MEA', 'H', 1.36], ['DJI', 'Djibouti', 'MEA', 'LM', 0.9],
  ['EGY', 'Egypt, Arab Rep.', 'MEA', 'LM', 89.6], ['IRN', 'Iran, Islamic Rep.', 'MEA', 'UM', 78.1], ['IRQ', 'Iraq', 'MEA', 'UM', 35.0],
  ['ISR', 'Israel', 'MEA', 'H', 8.2], ['JOR', 'Jordan', 'MEA', 'UM', 8.8], ['KWT', 'Kuwait', 'MEA', 'H', 3.75],
  ['LBN', 'Lebanon', 'MEA', 'UM', 5.6], ['LBY', 'Libya', 'MEA', 'UM', 6.26], ['MLT', 'Malta', 'MEA', 'H', 0.43],
  ['MAR', 'Morocco', 'MEA', 'LM', 34.3], ['OMN', 'Oman', 'MEA', 'H', 4.2], ['QAT', 'Qatar', 'MEA', 'H', 2.17],
  ['SAU', 'Saudi Arabia', 'MEA', 'H', 30.9], ['SYR', 'Syrian Arab Republic', 'MEA', 'LM', 19.2], ['TUN', 'Tunisia', 'MEA', 'UM', 11.0],
  ['ARE', 'United Arab Emirates', 'MEA', 'H', 9.1], ['PSE', 'West Bank and Gaza', 'MEA', 'LM', 4.3], ['YEM', 'Yemen, Rep.', 'MEA', 'LM', 26.2],
  // North America
  ['BMU', 'Bermuda', 'NAC', 'H', 0.065], ['CAN', 'Canada', 'NAC', 'H', 35.5], ['USA', 'United States', 'NAC', 'H', 318.9],
  // South Asia
  ['AFG', 'Afghanistan', 'SAS', 'L', 31.6], ['BGD', 'Bangladesh', 'SAS', 'LM', 159.1], ['BTN', 'Bhutan', 'SAS', 'LM', 0.765],
  ['IND', 'India', 'SAS', 'LM', 1295.3], ['MDV', 'Maldives', 'SAS', 'UM', 0.4], ['NPL', 'Nepal', 'SAS', 'L', 28.2],
  ['PAK', 'Pakistan', 'SAS', 'LM', 185.0], ['LKA', 'Sri Lanka', 'SAS', 'LM', 20.6],
  // Sub-Saharan Africa
  ['AGO', 'Angola', 'SSF', 'UM', 24.2], ['BEN', 'Benin', 'SSF', 'L', 10.6], ['BWA', 'Botswana', 'SSF', 'UM', 2.2],
  ['BFA', 'Burkina Faso', 'SSF', 'L', 17.6], ['BDI', 'Burundi', 'SSF', 'L', 10.8], ['CPV', 'Cabo Verde', 'SSF', 'LM', 0.51],
  ['CMR', 'Cameroon', 'SSF', 'LM', 22.8], ['CAF', 'Central African Republic', 'SSF', 'L', 4.8], ['TCD', 'Chad', 'SSF', 'L', 13.6],
  ['COM', 'Comoros', 'SSF', 'L', 0.77], ['COD', 'Congo, Dem. Rep.', 'SSF', 'L', 74.9], ['COG', 'Congo, Rep.', 'SSF', 'LM', 4.5],
  ['CIV', "Cote d'Ivoire", 'SSF', 'LM', 22.2], ['GNQ', 'Equatorial Guinea', 'SSF', 'H', 0.82], ['ERI', 'Eritrea', 'SSF', 'L', 5.1],
  ['ETH', 'Ethiopia', 'SSF', 'L', 97.0], ['GAB', 'Gabon', 'SSF', 'UM', 1.7], ['GMB', 'Gambia, The', 'SSF', 'L', 1.93],
  ['GHA', 'Ghana', 'SSF', 'LM', 26.8], ['GIN', 'Guinea', 'SSF', 'L', 12.3], ['GNB', 'Guinea-Bissau', 'SSF', 'L', 1.8],
  ['KEN', 'Kenya', 'SSF', 'LM', 44.9], ['LSO', 'Lesotho', 'SSF', 'LM', 2.1], ['LBR', 'Liberia', 'SSF', 'L', 4.4],
  ['MDG', 'Madagascar', 'SSF', 'L', 23.6], ['MWI', 'Malawi', 'SSF', 'L', 16.7], ['MLI', 'Mali', 'SSF', 'L', 17.1],
  ['MRT', 'Mauritania', 'SSF', 'LM', 4.0], ['MUS', 'Mauritius', 'SSF', 'UM', 1.26], ['MOZ', 'Mozambique', 'SSF', 'L', 27.2],
  ['NAM', 'Namibia', 'SSF', 'UM', 2.4], ['NER', 'Niger', 'SSF', 'L', 19.1], ['NGA', 'Nigeria', 'SSF', 'LM', 177.5],
  ['RWA', 'Rwanda', 'SSF', 'L', 11.3], ['STP', 'Sao Tome and Principe', 'SSF', 'LM', 0.19], ['SEN', 'Senegal', 'SSF', 'LM', 14.7],
  ['SYC', 'Seychelles', 'SSF', 'H', 0.09], ['SLE', 'Sierra Leone', 'SSF', 'L', 7.1], ['SOM', 'Somalia', 'SSF', 'L', 10.5],
  ['ZAF', 'South Africa', 'SSF', 'UM', 54.0], ['SSD', 'South Sudan', 'SSF', 'L', 11.9], ['SDN', 'Sudan', 'SSF', 'LM', 39.4],
  ['SWZ', 'Swaziland', 'SSF', 'LM', 1.27], ['TZA', 'Tanzania', 'SSF', 'L', 51.8], ['TGO', 'Togo', 'SSF', 'L', 7.1],
  ['UGA', 'Uganda', 'SSF', 'L', 37.8], ['ZMB', 'Zambia', 'SSF', 'LM', 15.7], ['ZWE', 'Zimbabwe', 'SSF', 'L', 15.2],
];

/** Fully urban city-states and territories. */
const CITY_STATES = new Set(['SGP', 'HKG', 'MAC', 'MCO', 'GIB', 'SXM', 'KWT', 'BMU', 'CYM', 'NRU']);
/** Southern African countries with very high HIV prevalence. */
const HIGH_HIV = new Set(['ZAF', 'BWA', 'LSO', 'SWZ', 'NAM', 'ZWE', 'ZMB', 'MWI', 'MOZ']);

/** Annual population growth (%) in 1960 and 2014 by region. */
const REGION_GROWTH: Record<RegionCode, [number, number]> = {
  EAS: [2.3, 0.7], ECS: [1.1, 0.3], LCN: [2.8, 1.1], MEA: [2.9, 1.9], NAC: [1.7, 0.8], SAS: [2.2, 1.4], SSF: [2.5, 2.7],
};
/** Development index in 2014 and its rise since 1960, by income group. */
const INCOME_DEV: Record<Income, [number, number]> = { H: [0.9, 0.24], UM: [0.68, 0.32], LM: [0.5, 0.28], L: [0.3, 0.2] };
/** Typical GNI per capita in 2014 (current US$) and nominal growth rate, by income group. */
const INCOME_GNI: Record<Income, [number, number]> = { H: [42000, 0.068], UM: [7500, 0.062], LM: [2300, 0.055], L: [650, 0.045] };
/** Development index 2014 for a few large countries whose income group alone misplaces them. */
const DEV_2014: Record<string, number> = { CHN: 0.76, NGA: 0.3, IND: 0.5, JPN: 0.95, USA: 0.9, RUS: 0.72 };
/** GNI per capita 2014 (current US$, rounded) for the largest economies, so the big names look right. */
const GNI_2014: Record<string, number> = {
  USA: 55200, CHN: 7400, JPN: 42000, DEU: 47600, GBR: 43400, FRA: 42900, IND: 1570, BRA: 11700, RUS: 13200, ITA: 34300,
  CAN: 51600, KOR: 27100, AUS: 64600, ESP: 29400, MEX: 9870, IDN: 3630, NGA: 2950, ZAF: 6800, TUR: 10800, SAU: 25100,
  ARG: 13500, CHE: 84600, NOR: 103000, SWE: 61600, NLD: 51900, PAK: 1400, BGD: 1080, ETH: 550, EGY: 3280, IRN: 7120,
};

/** Indicator columns (World Bank code with '.' → '_'). Order matters: it is the table's column order. */
export const WB_INDICATORS = [
  ['NY_GNP_PCAP_CD', 'GNI per capita, Atlas method (current US$)'],
  ['SH_DYN_AIDS', 'Adults (ages 15+) living with HIV'],
  ['SH_DYN_MORT', 'Mortality rate, under-5 (per 1,000 live births)'],
  ['SP_DYN_LE00_IN', 'Life expectancy at birth, total (years)'],
  ['SP_DYN_TFRT_IN', 'Fertility rate, total (births per woman)'],
  ['SP_POP_65UP_TO_ZS', 'Population ages 65 and above (% of total)'],
  ['SP_POP_GROW', 'Population growth (annual %)'],
  ['SP_POP_TOTL', 'Population, total'],
  ['SP_RUR_TOTL', 'Rural population'],
  ['SP_RUR_TOTL_ZS', 'Rural population (% of total population)'],
  ['SP_URB_TOTL', 'Urban population'],
  ['SP_URB_TOTL_IN_ZS', 'Urban population (% of total)'],
] as const;
type IndicatorCode = (typeof WB_INDICATORS)[number][0];

export const WB_COLUMNS: ExampleColumn[] = [
  { name: 'country_name', type: 'VARCHAR' },
  { name: 'country_code', type: 'VARCHAR' },
  { name: 'region', type: 'VARCHAR' },
  { name: 'year', type: 'TIMESTAMP' },
  ...WB_INDICATORS.map(([code]) => ({ name: code, type: 'DOUBLE' as const })),
];

type Values = Record<IndicatorCode, number | null>;

interface CountrySeries {
  code: string;
  region: RegionCode;
  income: Income;
  byYear: Values[];
}

function simulateCountry(country: Country): CountrySeries {
  const [code, , region, income, pop2014m] = country;
  const rand = mulberry32(fnv1a(code) ^ 0x0c0ffee);
  const g = () => gaussian(rand);

  const [g0r, g1r] = REGION_GROWTH[region];
  const tierShift = income === 'H' ? -0.3 : income === 'L' ? 0.3 : 0;
  const growth0 = g0r + tierShift + 0.35 * g();
  const growth1 = g1r + tierShift * 0.5 + 0.3 * g();
  const [dev1Base, devRise] = INCOME_DEV[income];
  const devDraw = clamp(dev1Base + 0.05 * g(), 0.08, 0.97);
  const dev1 = DEV_2014[code] ?? devDraw;
  const dev0 = clamp(dev1 - devRise * (1 + 0.2 * g()), 0.04, dev1 - 0.02);
  const leOffset = 1.5 * g();
  const tfrOffset = 0.25 * g() + (region === 'SSF' ? 1.6 : region === 'MEA' ? 0.4 : region === 'ECS' ? -0.2 : 0);
  const mortFactor = Math.exp(0.15 * g()) * (region === 'SSF' ? 1.1 : 1);
  const urbanOffset = 7 * g();
  const oldOffset = 1.2 * g() + (code === 'JPN' ? 6 : region === 'ECS' ? 1.5 : region === 'MEA' && income === 'H' ? -2 : 0);
  const [gniBase, gniRate] = INCOME_GNI[income];
  const gniDraw = gniBase * Math.exp(0.3 * g());
  const gni2014 = GNI_2014[code] ?? gniDraw;
  const gniGrowth = gniRate + 0.006 * g();
  const hivPeak =
    region === 'SSF' ? (HIGH_HIV.has(code) ? 0.16 * Math.exp(0.25 * g()) : 0.025 * Math.exp(0.6 * g())) : 0.003 * Math.exp(0.7 * g());
  // Smooth "business cycle" wobble for GNI and a tiny one for life expectancy.
  const phase1 = rand() * 2 * Math.PI;
  const phase2 = rand() * 2 * Math.PI;

  const span = WB_LAST_YEAR - WB_FIRST_YEAR;
  const years = span + 1;
  // Population: back-cast from the 2014 level with a smoothly changing growth rate.
  const growth: number[] = [];
  for (let i = 0; i < years; i++) {
    const t = i / span;
    growth.push(growth0 + (growth1 - growth0) * smoothstep(t) + 0.12 * Math.sin(2 * Math.PI * t * 2.5 + phase2));
  }
  const pops = new Array<number>(years);
  pops[span] = pop2014m * 1e6;
  for (let i = span; i > 0; i--) pops[i - 1] = pops[i] / (1 + growth[i] / 100);

  const byYear: Values[] = [];
  for (let i = 0; i < years; i++) {
    const year = WB_FIRST_YEAR + i;
    const t = i / span;
    const dev = dev0 + (dev1 - dev0) * (0.6 * t + 0.4 * smoothstep(t));
    const hiv = year < 1983 ? 0 : hivPeak * smoothstep((year - 1983) / 17) * (1 - 0.15 * smoothstep((year - 2005) / 9));
    const pop = Math.round(pops[i]);
    const urban = CITY_STATES.has(code) ? 100 : clamp(8 + 88 * dev ** 1.3 + urbanOffset, 2, 99.5);
    const rural = 100 - urban;
    const le = 30 + 52 * dev ** 0.6 + leOffset - 45 * hiv + 0.25 * Math.sin(2 * Math.PI * t * 3 + phase1);
    const tfr = Math.max(1.1, 1.5 + 5.3 / (1 + Math.exp((dev - 0.42) / 0.07)) + tfrOffset * (1 - dev));
    const mort = (3 + 380 * (1 - dev) ** 3.5) * mortFactor + 250 * hiv;
    const old = clamp(2.2 + 19 * dev ** 3.2 + oldOffset * (0.4 + 0.6 * t), 0.8, 27);
    const gni =
      year < 1962 ? null : Math.max(40, Math.round((gni2014 * Math.exp(-gniGrowth * (WB_LAST_YEAR - year)) * (1 + 0.04 * Math.sin(2 * Math.PI * t * 5 + phase1))) / 10) * 10);
    const ruralPop = Math.round((pop * rural) / 100);
    byYear.push({
      NY_GNP_PCAP_CD: gni,
      SH_DYN_AIDS: year < 1990 ? null : Math.round(pop * 0.6 * hiv),
      SH_DYN_MORT: roundTo(mort, 1),
      SP_DYN_LE00_IN: roundTo(le, 3),
      SP_DYN_TFRT_IN: roundTo(tfr, 3),
      SP_POP_65UP_TO_ZS: roundTo(old, 3),
      SP_POP_GROW: i === 0 ? null : roundTo((Math.log(pops[i] / pops[i - 1]) * 100), 3),
      SP_POP_TOTL: pop,
      SP_RUR_TOTL: ruralPop,
      SP_RUR_TOTL_ZS: roundTo(rural, 3),
      SP_URB_TOTL: pop - ruralPop,
      SP_URB_TOTL_IN_ZS: roundTo(urban, 3),
    });
  }
  return { code, region, income, byYear };
}

/** Population-weighted aggregate of a group of countries for one year. */
function aggregate(members: CountrySeries[], i: number, prevPop: number | null): Values {
  let pop = 0, rural = 0, aids = 0, aidsN = 0;
  const weighted: Partial<Record<IndicatorCode, [number, number]>> = {};
  const addW = (k: IndicatorCode, v: number | null, w: number) => {
    if (v === null) return;
    const cur = weighted[k] ?? [0, 0];
    cur[0] += v * w;
    cur[1] += w;
    weighted[k] = cur;
  };
  for (const m of members) {
    const v = m.byYear[i];
    const p = v.SP_POP_TOTL!;
    pop += p;
    rural += v.SP_RUR_TOTL!;
    if (v.SH_DYN_AIDS !== null) { aids += v.SH_DYN_AIDS; aidsN++; }
    addW('NY_GNP_PCAP_CD', v.NY_GNP_PCAP_CD, p);
    addW('SH_DYN_MORT', v.SH_DYN_MORT, p);
    addW('SP_DYN_LE00_IN', v.SP_DYN_LE00_IN, p);
    addW('SP_DYN_TFRT_IN', v.SP_DYN_TFRT_IN, p);
    addW('SP_POP_65UP_TO_ZS', v.SP_POP_65UP_TO_ZS, p);
  }
  const avg = (k: IndicatorCode, d: number) => {
    const w = weighted[k];
    return w && w[1] > 0 ? roundTo(w[0] / w[1], d) : null;
  };
  const gni = avg('NY_GNP_PCAP_CD', 0);
  const ruralPct = (rural / pop) * 100;
  return {
    NY_GNP_PCAP_CD: gni === null ? null : Math.round(gni / 10) * 10,
    SH_DYN_AIDS: aidsN > 0 ? aids : null,
    SH_DYN_MORT: avg('SH_DYN_MORT', 1),
    SP_DYN_LE00_IN: avg('SP_DYN_LE00_IN', 3),
    SP_DYN_TFRT_IN: avg('SP_DYN_TFRT_IN', 3),
    SP_POP_65UP_TO_ZS: avg('SP_POP_65UP_TO_ZS', 3),
    SP_POP_GROW: prevPop === null ? null : roundTo(Math.log(pop / prevPop) * 100, 3),
    SP_POP_TOTL: pop,
    SP_RUR_TOTL: rural,
    SP_RUR_TOTL_ZS: roundTo(ruralPct, 3),
    SP_URB_TOTL: pop - rural,
    SP_URB_TOTL_IN_ZS: roundTo(100 - ruralPct, 3),
  };
}

/** Region label used for aggregate rows (as the World Bank API labels them). */
export const WB_AGGREGATES_REGION = 'Aggregates';

export function generateWorldBank(): GeneratedTable {
  const series = WB_COUNTRIES.map(simulateCountry);
  const rows: (string | number | null)[][] = [];
  const years = WB_LAST_YEAR - WB_FIRST_YEAR + 1;
  const emit = (name: string, code: string, region: string, values: (i: number) => Values) => {
    for (let i = 0; i < years; i++) {
      const v = values(i);
      rows.push([name, code, region, yearStartMs(WB_FIRST_YEAR + i), ...WB_INDICATORS.map(([k]) => v[k])]);
    }
  };
  WB_COUNTRIES.forEach(([code, name, region], idx) => emit(name, code, WB_REGIONS[region], (i) => series[idx].byYear[i]));

  const groups: [string, string, CountrySeries[]][] = [
    ['WLD', 'World', series],
    ...(Object.keys(WB_REGIONS) as RegionCode[]).map((r): [string, string, CountrySeries[]] => [r, WB_REGIONS[r], series.filter((s) => s.region === r)]),
    ...(Object.keys(INCOME_AGGREGATES) as Income[]).map((inc): [string, string, CountrySeries[]] => [
      INCOME_AGGREGATES[inc][0], INCOME_AGGREGATES[inc][1], series.filter((s) => s.income === inc),
    ]),
  ];
  for (const [code, name, members] of groups) {
    let prev: number | null = null;
    emit(name, code, WB_AGGREGATES_REGION, (i) => {
      const v = aggregate(members, i, prev);
      prev = v.SP_POP_TOTL;
      return v;
    });
  }
  return { name: 'wb_health_population', columns: WB_COLUMNS, rows };
}
