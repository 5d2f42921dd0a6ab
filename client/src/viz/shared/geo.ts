/**
 * Map shapes from npm packages (world-atlas, us-atlas), registered with ECharts on first use; nothing is
 * downloaded at run time. Each feature's `properties.code` is what map data is keyed by: the ISO 3166
 * numeric code for countries, the postal code for US states.
 */
import { MapChart } from 'echarts/charts';
import { GeoComponent } from 'echarts/components';
import { registerMap, use } from 'echarts/core';
import { feature } from 'topojson-client';
import { US_STATES } from './geo-codes';

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
