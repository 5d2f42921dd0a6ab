import * as echarts from 'echarts/core';
import { MapChart } from 'echarts/charts';
import { SVGRenderer } from 'echarts/renderers';
import { feature } from 'topojson-client';
import { readFileSync } from 'node:fs';
echarts.use([MapChart, SVGRenderer]);
const topology = JSON.parse(readFileSync('node_modules/world-atlas/countries-110m.json', 'utf8'));
const fc = feature(topology, topology.objects.countries);
const features = fc.features.filter((f) => f.geometry).map((f) => ({ type: 'Feature', properties: { name: f.properties.name, code: String(f.id ?? '') }, geometry: f.geometry }));
echarts.registerMap('world', { type: 'FeatureCollection', features });
const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
try { chart.setOption({ series: [{ type: 'map', map: 'world', nameProperty: 'code', data: [{ name: '840', value: 3 }] }] }); console.log('ok', chart.renderToSVGString().length); } catch (e) { console.log('ERR', e.message); }
