/**
 * Build-time side of the Country Map's shapes (runs in Node, in Vite and Vitest; never in the browser): Superset's own
 * GeoJSON files, as its Country Map package publishes them on npm (one file per `select_country` key, each region
 * with its ISO 3166-2 code in `ISO` and its name in `NAME_1`), turned into one small module per country.
 *
 * Each module holds the country's regions projected and quantised: x is longitude times the cosine of the country's
 * middle latitude and y is latitude (so the map keeps its proportions with ECharts' aspectScale 1), both as integers
 * on a grid of QUANT steps across the country's larger side, each ring delta-encoded. Germany's 630 KB of GeoJSON
 * becomes about 60 KB; the grid step (a 4096th of the country) is far under a pixel at any chart size.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const QUANT = 4096;

let dir: string | null = null;
/** The folder of Superset's country GeoJSON files in node_modules (found once per build). */
function shapesDir(): string {
  dir ??= join(dirname(createRequire(import.meta.url).resolve('@superset-ui/legacy-plugin-chart-country-map/package.json')), 'esm', 'countries');
  return dir;
}

let keys: string[] | null = null;
/** Every country with shapes: Superset's `select_country` keys (the files' names), read once per build. */
export function countryKeys(): string[] {
  keys ??= readdirSync(shapesDir())
    .filter((f) => f.endsWith('.geojson'))
    .map((f) => f.slice(0, -'.geojson'.length))
    .sort();
  return keys;
}

/** One region of a compacted country: its ISO 3166-2 code, its name, and its polygons as delta-encoded rings. */
export type CompactRegion = { code: string; name: string; polygons: number[][][] };
/** A compacted country: its regions, and the grid step that turns their integers back into map units. */
export type CompactCountry = { step: number; regions: CompactRegion[] };

type Ring = number[][];
type Feature = { properties: { ISO?: string; NAME_1?: string }; geometry: { type: string; coordinates: any } | null };

/** The polygons of a GeoJSON geometry (a Polygon is one). */
const polygonsOf = (g: Feature['geometry']): Ring[][] => (!g ? [] : g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []);

/**
 * A country's GeoJSON compacted. Regions sharing a code (Madagascar's regions carry their province's code, as
 * Superset colours them) become one region; a country spread across the antimeridian (Russia's Chukotka, Fiji)
 * continues past 180° rather than being split across the map.
 */
export function compactCountry(geojson: { features: Feature[] }): CompactCountry {
  const byCode = new Map<string, { names: string[]; polygons: Ring[][] }>();
  for (const f of geojson.features) {
    const code = String(f.properties.ISO ?? '').trim().toUpperCase();
    if (!code) continue;
    const region = byCode.get(code) ?? { names: [], polygons: [] };
    const name = String(f.properties.NAME_1 ?? code);
    if (!region.names.includes(name)) region.names.push(name);
    region.polygons.push(...polygonsOf(f.geometry));
    byCode.set(code, region);
  }
  const rings = [...byCode.values()].flatMap((r) => r.polygons.flat());
  const lons = rings.flatMap((ring) => ring.map((p) => p[0]!));
  const wraps = lons.some((x) => x > 150) && lons.some((x) => x < -150);
  const span = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  const shift = wraps && span(lons.map((x) => (x < 0 ? x + 360 : x))) < span(lons) ? (x: number) => (x < 0 ? x + 360 : x) : (x: number) => x;
  const lats = rings.flatMap((ring) => ring.map((p) => p[1]!));
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const kx = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const xs = lons.map((x) => shift(x) * kx);
  const step = Math.max(span(xs), maxLat - minLat) / QUANT || 1;
  const encode = (ring: Ring): number[] => {
    const out: number[] = [];
    let [px, py] = [0, 0];
    for (const [lon, lat] of ring) {
      const [x, y] = [Math.round((shift(lon!) * kx) / step), Math.round(lat! / step)];
      if (out.length && x === px && y === py) continue;
      out.push(x - px, y - py);
      [px, py] = [x, y];
    }
    return out;
  };
  const regions = [...byCode.entries()].map(([code, r]) => {
    const polygons = r.polygons.map((polygon) => polygon.map(encode).filter((ring) => ring.length >= 6)).filter((polygon) => polygon.length > 0);
    // A region too small for the grid (an islet) keeps its first ring's points, so it stays on the map.
    return { code, name: r.names.join(' / '), polygons: polygons.length ? polygons : r.polygons.slice(0, 1).map((p) => p.slice(0, 1).map(encode)) };
  });
  return { step, regions };
}

/** A country's compacted shapes, read from Superset's GeoJSON file for that `select_country` key. */
function readCountry(key: string): CompactCountry {
  if (!countryKeys().includes(key)) throw new Error(`No shapes for ${key}`);
  return compactCountry(JSON.parse(readFileSync(join(shapesDir(), `${key}.geojson`), 'utf8')));
}

const KEYS = 'virtual:country-map-keys';
const INDEX = 'virtual:country-map-shapes';
const COUNTRY = 'virtual:country-map-shape/';
const CHUNK = 'country-map-';

/**
 * Vite plugin: `virtual:country-map-keys` exports every country's key (countryKeys, 'usa' too), the Country control's
 * list; `virtual:country-map-shapes` exports, for each country, a function that imports that country's shapes,
 * `virtual:country-map-shape/<key>`, a module of its own: Vite makes each a separate chunk, fetched the first time
 * that country is drawn.
 */
export function countryShapes(): Plugin {
  return {
    name: 'meridian-country-shapes',
    resolveId(id) {
      if (id === KEYS) return `\0${KEYS}`;
      if (id === INDEX) return `\0${INDEX}`;
      // Resolved to a plain name, which names the chunk: assets/country-map-france-<hash>.js.
      if (id.startsWith(COUNTRY)) return `\0${CHUNK}${id.slice(COUNTRY.length)}`;
      return null;
    },
    load(id) {
      if (id === `\0${KEYS}`) return `export default ${JSON.stringify(countryKeys())};\n`;
      // The USA draws from us-atlas (geo.ts), so it has no chunk of its own.
      if (id === `\0${INDEX}`) return `export default {\n${countryKeys().filter((k) => k !== 'usa').map((k) => `  ${JSON.stringify(k)}: () => import(${JSON.stringify(COUNTRY + k)}),`).join('\n')}\n};\n`;
      if (id.startsWith(`\0${CHUNK}`)) return `export default JSON.parse(${JSON.stringify(JSON.stringify(readCountry(id.slice(CHUNK.length + 1))))});\n`;
      return null;
    },
  };
}
