/**
 * Map shapes from npm packages (world-atlas, us-atlas, and Superset's Country Map package for the other countries),
 * registered with ECharts on first use; nothing is downloaded at run time. Each feature's `properties.code` is what
 * map data is keyed by: the ISO 3166 numeric code for countries, the postal code for US states, the ISO 3166-2 code
 * (FR-75) for the regions of the other countries.
 */
import { MapChart } from 'echarts/charts';
import { GeoComponent } from 'echarts/components';
import { registerMap, use } from 'echarts/core';
import { feature } from 'topojson-client';
import countryShapes from 'virtual:country-map-shapes';
import { COUNTRY_MAP_PREFIX, setRegionNames, US_STATES } from './geo-codes';

// registerMap only stores shapes once the geo component is installed (it registers the implementation);
// before that it silently does nothing and the map draws fail on a missing map.
use([MapChart, GeoComponent]);

type Topology = Parameters<typeof feature>[0];

const registered = new Set<string>();

type Geometry = { type: string; coordinates: any };

const ANTARCTICA = '010';

/**
 * A ring crossing the antimeridian (Russia's far east, Fiji) has points at both +179° and -179°, which
 * ECharts joins straight across the whole map; such rings continue past 180° instead.
 */
export function unwrapAntimeridian(geometry: Geometry): any {
  const rings = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : null;
  if (!rings) return geometry.coordinates;
  const fixed = rings.map((polygon: number[][][]) =>
    polygon.map((ring) => {
      const crosses = ring.some(([x]) => x! > 150) && ring.some(([x]) => x! < -150);
      return crosses ? ring.map(([x, y]) => [x! < 0 ? x! + 360 : x!, y!]) : ring;
    }),
  );
  return geometry.type === 'Polygon' ? fixed[0] : fixed;
}

/** Registers the world's countries as map 'world' (Natural Earth 1:110m, from world-atlas). */
export async function registerWorld(): Promise<void> {
  if (registered.has('world')) return;
  const topology = (await import('world-atlas/countries-110m.json')).default as unknown as Topology;
  const fc = feature(topology, topology.objects.countries as Parameters<typeof feature>[1]) as unknown as { features: Array<{ id?: string; properties: { name: string }; geometry: Geometry }> };
  const features = fc.features
    .filter((f) => f.geometry && f.id !== ANTARCTICA)
    .map((f) => ({ type: 'Feature', properties: { name: f.properties.name, code: String(f.id ?? '') }, geometry: { ...f.geometry, coordinates: unwrapAntimeridian(f.geometry) } }));
  registerMap('world', { type: 'FeatureCollection', features } as any);
  registered.add('world');
}

/** Registers US states as map 'usa' (us-atlas, Albers USA with Alaska and Hawaii inset; y flipped for ECharts). */
export async function registerUsa(): Promise<void> {
  if (registered.has('usa')) return;
  const topology = (await import('us-atlas/states-albers-10m.json')).default as unknown as Topology;
  const fc = feature(topology, topology.objects.states as Parameters<typeof feature>[1]) as unknown as { features: Array<{ id?: string; geometry: Geometry }> };
  const flip = (c: any): any => (typeof c[0] === 'number' ? [c[0], -c[1]] : c.map(flip));
  const features = fc.features
    .filter((f) => f.geometry && US_STATES[String(f.id)])
    .map((f) => ({ type: 'Feature', properties: { name: US_STATES[String(f.id)]![1], code: US_STATES[String(f.id)]![0] }, geometry: { ...f.geometry, coordinates: flip(f.geometry.coordinates) } }));
  registerMap('usa', { type: 'FeatureCollection', features } as any);
  registered.add('usa');
}

/** A delta-encoded ring back in map units, closed. */
function decodeRing(ring: number[], step: number): number[][] {
  const out: number[][] = [];
  let [x, y] = [0, 0];
  for (let i = 0; i + 1 < ring.length; i += 2) {
    x += ring[i]!;
    y += ring[i + 1]!;
    out.push([x * step, y * step]);
  }
  const [first, last] = [out[0], out[out.length - 1]];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) out.push(first);
  return out;
}

/**
 * Registers a country of Superset's Country Map (its `select_country` key, e.g. 'france') as map 'country:france':
 * its shapes are a chunk of their own, fetched the first time the country is drawn. Its regions' names are kept for
 * the tooltips (regionName). Throws for a key with no shapes.
 */
export async function registerCountry(key: string): Promise<void> {
  const name = `${COUNTRY_MAP_PREFIX}${key}`;
  if (registered.has(name)) return;
  // The build's compacted shapes (country_map/country-shapes.build.ts): delta-encoded rings on a grid of `step`.
  const load = Object.hasOwn(countryShapes, key) ? countryShapes[key] : undefined;
  if (!load) throw new Error(`No shapes for ${key}`);
  const { step, regions } = (await load()).default;
  const features = regions.map((r) => ({
    type: 'Feature',
    properties: { name: r.name, code: r.code },
    geometry: { type: 'MultiPolygon', coordinates: r.polygons.map((polygon) => polygon.map((ring) => decodeRing(ring, step))) },
  }));
  registerMap(name, { type: 'FeatureCollection', features } as any);
  setRegionNames(name, regions.map((r) => [r.code, r.name]));
  registered.add(name);
}

/** Registers the shapes of a map chart's map: 'world', 'usa' or a country of the Country Map ('country:france'). */
export function registerShapes(map: string): Promise<void> {
  if (map === 'world') return registerWorld();
  if (map === 'usa') return registerUsa();
  if (map.startsWith(COUNTRY_MAP_PREFIX)) return registerCountry(map.slice(COUNTRY_MAP_PREFIX.length));
  return Promise.reject(new Error(`No shapes for ${map}`));
}
