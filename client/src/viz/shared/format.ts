/**
 * Number and time formats as Superset names them (d3-format / d3-time-format strings, plus its
 * 'SMART_NUMBER' and 'smart_date' adaptive formats, the defaults).
 */
import { format as d3Format } from 'd3-format';
import { utcFormat } from 'd3-time-format';
import { temporalColumns } from './metrics';

export const SMART_NUMBER = 'SMART_NUMBER';
export const SMART_DATE = 'smart_date';

/** The number formats offered by the pickers (Superset's D3_FORMAT_OPTIONS). */
export const NUMBER_FORMAT_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  [SMART_NUMBER, 'Adaptive formatting'],
  ['~g', 'Original value'],
  [',d', ',d (12345.432 => 12,345)'],
  ['.1s', '.1s (12345.432 => 10k)'],
  ['.3s', '.3s (12345.432 => 12.3k)'],
  [',.1%', ',.1% (12345.432 => 1,234,543.2%)'],
  ['.2%', '.2% (12345.432 => 1234543.20%)'],
  ['.3%', '.3% (12345.432 => 1234543.200%)'],
  ['.4r', '.4r (12345.432 => 12350)'],
  [',.3f', ',.3f (12345.432 => 12,345.432)'],
  ['+,', '+, (12345.432 => +12,345.432)'],
  ['$,.2f', '$,.2f (12345.432 => $12,345.43)'],
  ['DURATION', 'Duration in ms (66000 => 1m 6s)'],
];

/** The time formats offered by the pickers (Superset's D3_TIME_FORMAT_OPTIONS). */
export const TIME_FORMAT_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  [SMART_DATE, 'Adaptive formatting'],
  ['%d/%m/%Y', '%d/%m/%Y | 14/01/2019'],
  ['%m/%d/%Y', '%m/%d/%Y | 01/14/2019'],
  ['%Y-%m-%d', '%Y-%m-%d | 2019-01-14'],
  ['%Y-%m-%d %H:%M:%S', '%Y-%m-%d %H:%M:%S | 2019-01-14 01:32:10'],
  ['%d-%m-%Y %H:%M:%S', '%d-%m-%Y %H:%M:%S | 14-01-2019 01:32:10'],
  ['%H:%M:%S', '%H:%M:%S | 01:32:10'],
];

const large = d3Format('.3~s');
const medium = d3Format(',.2~f');
const small = d3Format('.3~r');

/** Superset's adaptive number format: SI suffixes for large values (G becomes B), fewer digits for small ones. */
function smartNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs === 0) return '0';
  if (abs >= 1000) return large(n).replace('G', 'B');
  if (abs >= 1) return medium(n);
  if (abs >= 0.001) return small(n);
  return large(n);
}

function duration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.abs(Math.round(ms));
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  if (rest || !parts.length) parts.push(`${rest}ms`);
  return `${ms < 0 ? '-' : ''}${parts.join(' ')}`;
}

const numberCache = new Map<string, (n: number | null | undefined) => string>();

/**
 * A number formatter for a Superset format id or d3-format string; unknown strings fall back to the
 * adaptive format. Null and NaN read as 'N/A'.
 *
 * @example getNumberFormatter(',d')(12345.4) // '12,345'
 */
export function getNumberFormatter(format?: string | null): (n: number | null | undefined) => string {
  const key = format || SMART_NUMBER;
  const cached = numberCache.get(key);
  if (cached) return cached;
  let base: (n: number) => string = smartNumber;
  if (key === 'DURATION') base = duration;
  else if (key !== SMART_NUMBER) {
    try {
      base = d3Format(key);
    } catch {
      base = smartNumber;
    }
  }
  const formatter = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(Number(n)) ? 'N/A' : base(Number(n)));
  numberCache.set(key, formatter);
  return formatter;
}

/** Superset's currency symbol that means 'the dataset's currency code column says' (Superset 5). */
export const AUTO_CURRENCY = 'AUTO';

/** Superset's `currency_format` form data: an ISO 4217 code and where its symbol goes; empty when unset. */
export interface Currency {
  symbol?: string;
  symbolPosition?: 'prefix' | 'suffix' | string;
}

/** A stored currency format as an object (a JSON string, as some charts store it, is read too); anything else reads as none. */
export function currencyOf(value: unknown): Currency | undefined {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Currency) : undefined;
}

const symbolCache = new Map<string, string>();

/**
 * The symbol of an ISO 4217 code as Intl's en-US currency style writes it (Superset's getCurrencySymbol);
 * a code Intl refuses is shown as given.
 *
 * @example getCurrencySymbol('EUR') // '€'; getCurrencySymbol('CAD') // 'CA$'
 */
export function getCurrencySymbol(code: string): string {
  const cached = symbolCache.get(code);
  if (cached !== undefined) return cached;
  let symbol = code;
  try {
    symbol = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).formatToParts(1).find((p) => p.type === 'currency')?.value ?? code;
  } catch {
    // Not a well-formed code: the text itself.
  }
  symbolCache.set(code, symbol);
  return symbol;
}

/**
 * The value formatter of a number format with a currency format (Superset's CurrencyFormatter and getValueFormatter):
 * without a currency symbol, the number format alone; with one, the number format less any '$' and '%' (adaptive when
 * unset), then the symbol and a space before it ('prefix') or a space and the symbol after it (anything else).
 * Values that read 'N/A' get no symbol.
 *
 * @example getValueFormatter(',.2f', { symbol: 'USD', symbolPosition: 'prefix' })(1234.5) // '$ 1,234.50'
 */
export function getValueFormatter(format: string | null | undefined, currencyFormat?: unknown): (n: number | null | undefined) => string {
  const currency = currencyOf(currencyFormat);
  // Superset 5's 'AUTO' takes the currency its dataset's currency code column holds for the rows; Meridian's datasets
  // have no such column, so nothing is detected and, as Superset then does, the number reads without a symbol.
  if (!currency?.symbol || currency.symbol === AUTO_CURRENCY) return getNumberFormatter(format);
  const number = getNumberFormatter((format || SMART_NUMBER).replace(/\$|%/g, ''));
  const symbol = getCurrencySymbol(currency.symbol);
  const prefix = currency.symbolPosition === 'prefix';
  return (n) => {
    const text = number(n);
    if (text === 'N/A') return text;
    return prefix ? `${symbol} ${text}` : `${text} ${symbol}`;
  };
}

const f = {
  ms: utcFormat('.%L'),
  second: utcFormat(':%S'),
  minute: utcFormat('%H:%M'),
  hour: utcFormat('%H:%M'),
  day: utcFormat('%a %d'),
  week: utcFormat('%b %d'),
  month: utcFormat('%B'),
  year: utcFormat('%Y'),
};

/** Superset's adaptive date format: the coarsest unit that shows the value exactly (times are UTC, as the chart data API answers them). */
function smartDate(d: Date): string {
  if (d.getUTCMilliseconds()) return f.ms(d);
  if (d.getUTCSeconds()) return f.second(d);
  if (d.getUTCMinutes()) return f.minute(d);
  if (d.getUTCHours()) return f.hour(d);
  if (d.getUTCDate() !== 1) return d.getUTCDay() ? f.day(d) : f.week(d);
  if (d.getUTCMonth()) return f.month(d);
  return f.year(d);
}

const detailed = { ms: utcFormat('%Y-%m-%d %H:%M:%S.%L'), second: utcFormat('%Y-%m-%d %H:%M:%S'), minute: utcFormat('%Y-%m-%d %H:%M'), day: utcFormat('%Y-%m-%d'), year: utcFormat('%Y') };

/** Superset's detailed adaptive format, for tooltips: the whole date down to the finest unit set ('2004-02-01', '2004'). */
export function smartDateDetailed(t: number | Date): string {
  const d = t instanceof Date ? t : new Date(t);
  if (d.getUTCMilliseconds()) return detailed.ms(d);
  if (d.getUTCSeconds()) return detailed.second(d);
  if (d.getUTCMinutes() || d.getUTCHours()) return detailed.minute(d);
  if (d.getUTCDate() !== 1 || d.getUTCMonth()) return detailed.day(d);
  return detailed.year(d);
}

/** Whether a time format is the adaptive one (Superset's default, also when none is set). */
export const isSmartDate = (format: unknown): boolean => !format || format === SMART_DATE;

const timeCache = new Map<string, (t: number | string | Date | null | undefined) => string>();

/**
 * A time formatter for a Superset format id or d3-time-format string (UTC).
 *
 * @example getTimeFormatter('%Y-%m-%d')(Date.UTC(2019, 0, 14)) // '2019-01-14'
 */
export function getTimeFormatter(format?: string | null): (t: number | string | Date | null | undefined) => string {
  const key = format || SMART_DATE;
  const cached = timeCache.get(key);
  if (cached) return cached;
  const base = key === SMART_DATE ? smartDate : utcFormat(key);
  const formatter = (t: number | string | Date | null | undefined) => {
    if (t === null || t === undefined || t === '') return 'N/A';
    const d = t instanceof Date ? t : new Date(typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : t);
    return Number.isNaN(d.getTime()) ? String(t) : base(d);
  };
  timeCache.set(key, formatter);
  return formatter;
}

/**
 * How a chart writes a group-by value (Superset's formatSeriesName): a temporal column's in the date format (adaptive
 * when none is set), a missing value as `nullText`, anything else as text.
 *
 * @example groupValueFormatter({ colnames: ['ds'], coltypes: [2] }, '%Y')('ds', Date.UTC(2004, 0, 1)) // '2004'
 */
export function groupValueFormatter(result: { colnames?: string[]; coltypes?: number[] } | undefined, dateFormat: unknown, nullText = 'NULL'): (column: string, value: unknown) => string {
  const temporal = temporalColumns(result);
  const time = getTimeFormatter(typeof dateFormat === 'string' ? dateFormat : null);
  return (column, value) => (value === null || value === undefined ? nullText : temporal.has(column) ? time(value as number | string) : String(value));
}

/** Text set into a tooltip's HTML (names and descriptions from the data): shown as written, never as markup. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
