/**
 * Colour schemes, categorical and sequential, with Superset's ids and its default ('supersetColors').
 * A label keeps its colour within a scheme, so the same series is the same colour on every chart.
 */

export interface ColorScheme {
  id: string;
  label: string;
  colors: readonly string[];
  /** A sequential scheme with a middle (low and high both strong): its order holds in either theme. */
  diverging?: boolean;
}

export const DEFAULT_CATEGORICAL_SCHEME = 'supersetColors';
export const DEFAULT_SEQUENTIAL_SCHEME = 'superset_seq_1';

export const CATEGORICAL_SCHEMES: readonly ColorScheme[] = [
  {
    id: 'supersetColors',
    label: 'Superset Colors',
    colors: ['#1FA8C9', '#454E7C', '#5AC189', '#FF7F44', '#666666', '#E04355', '#FCC700', '#A868B7', '#3CCCCB', '#A38F79', '#8FD3E4', '#A1A6BD', '#ACE1C4', '#FEC0A1', '#B2B2B2', '#EFA1AA', '#FDE380', '#D3B3DA', '#9EE5E5', '#D1C6BC'],
  },
  { id: 'd3Category10', label: 'D3 Category 10', colors: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'] },
  { id: 'bnbColors', label: 'Airbnb Colors', colors: ['#ff5a5f', '#7b0051', '#007A87', '#00d1c1', '#8ce071', '#ffb400', '#b4a76c', '#ff8083', '#cc0086', '#00a1b3', '#00ffeb', '#bbedab', '#ffd266', '#cbc29a', '#ff3339', '#ff1ab1', '#005c66', '#00b3a5', '#55d12e', '#b37e00', '#988b4e'] },
  { id: 'googleCategory10c', label: 'Google Category 10c', colors: ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6', '#dd4477', '#66aa00', '#b82e2e', '#316395'] },
  { id: 'lyftColors', label: 'Lyft Colors', colors: ['#EA0B8C', '#6C838E', '#29ABE2', '#33D9C1', '#9DACB9', '#7560AA', '#2D5584', '#831C4A', '#333D47', '#AC2077'] },
  { id: 'echarts4Colors', label: 'ECharts v4.x Colors', colors: ['#c23531', '#2f4554', '#61a0a8', '#d48265', '#91c7ae', '#749f83', '#ca8622', '#bda29a', '#6e7074', '#546570', '#c4ccd3'] },
];

export const SEQUENTIAL_SCHEMES: readonly ColorScheme[] = [
  { id: 'superset_seq_1', label: 'Superset Sequential #1', colors: ['#ecf7fa', '#c5e9f2', '#9edbeb', '#77cde3', '#50bfdb', '#29b1d4', '#1f8dab', '#176a80', '#0f4755', '#08232b'] },
  { id: 'blue_white_yellow', label: 'Blue, white and yellow', colors: ['#00d1c1', '#ffffff', '#ffb400'], diverging: true },
  { id: 'fire', label: 'Fire', colors: ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#bd0026', '#800026'] },
  { id: 'white_black', label: 'White and black', colors: ['#ffffff', '#000000'] },
  { id: 'blues', label: 'Blues', colors: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'] },
  { id: 'red_yellow_blue', label: 'Red, yellow and blue', colors: ['#d73027', '#fc8d59', '#fee090', '#ffffbf', '#e0f3f8', '#91bfdb', '#4575b4'], diverging: true },
];

export const categoricalScheme = (id?: string | null): ColorScheme => CATEGORICAL_SCHEMES.find((s) => s.id === id) ?? CATEGORICAL_SCHEMES[0];
export const sequentialScheme = (id?: string | null): ColorScheme => SEQUENTIAL_SCHEMES.find((s) => s.id === id) ?? SEQUENTIAL_SCHEMES[0];

// One label→colour map per scheme for the page's life (Superset's CategoricalColorNamespace).
const assigned = new Map<string, Map<string, string>>();
// Colours a dashboard gives labels (its label_colors, and shared_label_colors when saved as a map): they win in every scheme.
let forced = new Map<string, string>();

/**
 * The label colours of the dashboard on screen (json_metadata label_colors, over its shared_label_colors), as
 * Superset's forced namespace colours; an empty map when the dashboard is left.
 */
export function setForcedLabelColors(colors: Record<string, unknown>): void {
  forced = new Map(Object.entries(colors).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

// The colours labels were drawn with since the dashboard on screen opened: a save keeps them (shared_label_colors),
// so the next visit draws each label as this one did, whichever chart comes first.
let drawn = new Map<string, string>();

/** Starts the record of drawn label colours afresh (a dashboard opening). */
export function startDrawnLabelColors(): void {
  drawn = new Map();
}

/** The label colours drawn since the record started, by label. */
export function drawnLabelColors(): Record<string, string> {
  return Object.fromEntries(drawn);
}

/** The colour of a label in a categorical scheme: stable per label, new labels take the next free colour. */
export function getCategoricalColor(schemeId: string | null | undefined, label: string): string {
  const color = forced.get(label) ?? schemeColor(schemeId, label);
  drawn.set(label, color);
  return color;
}

function schemeColor(schemeId: string | null | undefined, label: string): string {
  const scheme = categoricalScheme(schemeId);
  let map = assigned.get(scheme.id);
  if (!map) assigned.set(scheme.id, (map = new Map()));
  const known = map.get(label);
  if (known) return known;
  const color = scheme.colors[map.size % scheme.colors.length];
  map.set(label, color);
  return color;
}

/**
 * `n` colours along a sequential scheme (interpolated between its stops). The one-way schemes run from the page's
 * colour to its opposite, so that small values fade into the background and large ones stand out: in the dark theme
 * they run the other way (light to near-black put the largest values, near-black, out of sight on a dark page).
 * Diverging schemes keep their order.
 */
export function getSequentialColors(schemeId: string | null | undefined, n: number, theme: 'light' | 'dark' = 'light'): string[] {
  const scheme = sequentialScheme(schemeId);
  const stops = theme === 'dark' && !scheme.diverging ? [...scheme.colors].reverse() : scheme.colors;
  if (n <= 1) return [stops[stops.length - 1]];
  return Array.from({ length: n }, (_, i) => interpolate(stops, i / (n - 1)));
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

/** The colour at `t` (0..1) along a list of hex stops. */
export function interpolate(stops: readonly string[], t: number): string {
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const a = hex(stops[i]);
  const b = hex(stops[i + 1]);
  const mix = a.map((v, k) => Math.round(v + (b[k] - v) * (x - i)));
  return `#${mix.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A colour as Superset's ColorPickerControl stores it: `{ r, g, b, a }`, each of r, g, b 0-255 and a 0-1. */
export interface RgbaColor {
  r: number;
  g: number;
  b: number;
  a?: number;
}

/** Superset's primary colour (#1FA8C9), the default of its 'color_picker'. */
export const PRIMARY_RGBA: RgbaColor = { r: 31, g: 168, b: 201, a: 1 };

/**
 * A stored picker colour as CSS ('rgba(90, 193, 137, 1)'), or `fallback` when nothing usable is stored. A hex string
 * is taken as it is.
 *
 * @example pickerColor({ r: 90, g: 193, b: 137, a: 1 }, '#000') // 'rgba(90, 193, 137, 1)'
 */
export function pickerColor(value: unknown, fallback: string): string {
  if (typeof value === 'string' && /^#[0-9a-f]{3,8}$/i.test(value)) return value;
  if (!value || typeof value !== 'object') return fallback;
  const { r, g, b, a } = value as Partial<RgbaColor>;
  if (![r, g, b].every((c) => typeof c === 'number' && Number.isFinite(c))) return fallback;
  return `rgba(${r}, ${g}, ${b}, ${typeof a === 'number' ? a : 1})`;
}

/** A CSS colour ('#5ac189', 'rgba(90, 193, 137, 0.5)', 'rgb(…)') as the picker stores it, or null when it is not one. */
export function toPickerValue(css: string): RgbaColor | null {
  const h = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(css.trim());
  if (h) return { r: parseInt(h[1]!.slice(0, 2), 16), g: parseInt(h[1]!.slice(2, 4), 16), b: parseInt(h[1]!.slice(4, 6), 16), a: h[2] ? Math.round((parseInt(h[2], 16) / 255) * 100) / 100 : 1 };
  const m = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)$/i.exec(css.trim());
  return m ? { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: m[4] === undefined ? 1 : Number(m[4]) } : null;
}
