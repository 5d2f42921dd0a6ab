import * as echarts from 'echarts';
const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
const xs = [0, 1, 2];
const a = [5, 6, 7], b = [3, 2, 1];
const base = xs.map((x, i) => [x, -(a[i] + b[i]) / 2]);
chart.setOption({ animation: false, xAxis: { type: 'value' }, yAxis: { type: 'value' }, series: [
  { id: 'base', type: 'line', stack: 't', stackStrategy: 'all', data: base, lineStyle: { opacity: 0 }, showSymbol: false },
  { name: 'a', type: 'line', stack: 't', stackStrategy: 'all', data: xs.map((x, i) => [x, a[i]]), areaStyle: { opacity: 0.5 }, showSymbol: false },
  { name: 'b', type: 'line', stack: 't', stackStrategy: 'all', data: xs.map((x, i) => [x, b[i]]), areaStyle: { opacity: 0.5 }, showSymbol: false },
] });
const svg = chart.renderToSVGString();
console.log(svg.match(/<path d="[^"]+"[^>]*fill-opacity[^>]*>/g)?.join('\n'));
