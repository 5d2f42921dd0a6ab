import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';
import { newNativeFilter } from '../../contracts/src/dashboard/native-filters';
import { okBody } from './util';

export interface ExampleChart {
  id: number;
  slice_name: string;
  viz_type: string;
  params: string;
  datasource_id: number;
}

/**
 * The bench's 50-chart dashboard: the examples' charts copied (repeated) with their own row limit each, so no
 * two queries are alike, three to a row, with one native filter (a time range over every chart). Returns the
 * dashboard's id and its charts' ids with their types.
 */
export async function createFiftyChartDashboard(url: string, headers: Record<string, string>): Promise<{ dashboardId: number; charts: Array<{ id: number; viz_type: string }> }> {
  const listed = await okBody(await fetch(`${url}/api/v1/chart/?q=${encodeURIComponent('(page_size:100)')}`, { headers }));
  const examples = (JSON.parse(listed.toString()) as { result: ExampleChart[] }).result;
  const charts: Array<{ id: number; viz_type: string }> = [];
  for (let i = 0; i < 50; i++) {
    const c = examples[i % examples.length]!;
    const params = { ...JSON.parse(c.params), row_limit: 5000 + i };
    const res = await fetch(`${url}/api/v1/chart/`, { method: 'POST', headers, body: JSON.stringify({ slice_name: `${c.slice_name} #${i}`, viz_type: c.viz_type, datasource_id: c.datasource_id, datasource_type: 'table', params: JSON.stringify(params) }) });
    charts.push({ id: (JSON.parse((await okBody(res)).toString()) as { id: number }).id, viz_type: c.viz_type });
  }
  const rows = Array.from({ length: Math.ceil(charts.length / 3) }, (_, r) => charts.slice(r * 3, r * 3 + 3).map(({ id }) => ({ chartId: id, width: 4, height: 50 })));
  const years = { ...newNativeFilter('NATIVE_FILTER-bench-years', 'filter_time'), name: 'Years' };
  const title = 'Bench: 50 charts';
  const created = await fetch(`${url}/api/v1/dashboard/`, { method: 'POST', headers, body: JSON.stringify({ dashboard_title: title, position_json: JSON.stringify(positionFromLayout(layoutOfRows(title, rows))), json_metadata: JSON.stringify({ native_filter_configuration: [years] }) }) });
  return { dashboardId: (JSON.parse((await okBody(created)).toString()) as { id: number }).id, charts };
}
