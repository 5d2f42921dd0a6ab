import { layoutOfRows, positionFromLayout, type RowCell } from '@meridian/contracts/dashboard/layout-reducer';
import { dataMaskOf, newNativeFilter, withScopeComputed, type FilterConfigItem, type NativeFilter, type NativeFilterType } from '@meridian/contracts/dashboard/native-filters';
import type { MetadataDb } from '../db/database';
import { EXAMPLES_DATABASE_NAME } from '../database/examples';
import { ChartRepository } from '../chart/chart.repository';
import { DashboardRepository } from './dashboard.repository';

type Params = Record<string, unknown>;
interface ExampleChart {
  name: string;
  viz_type: string;
  params: Params;
  width: number;
  height?: number;
}
type Cell = ExampleChart | { markdown: string; width: number; height?: number };
interface ExampleDashboard {
  slug: string;
  title: string;
  dataset: string;
  /** Rows of cells, or tabs of rows. */
  content: Cell[][] | Array<{ tab: string; rows: Cell[][] }>;
  /** Native filters on the dashboard's dataset; `chartId` finds a chart of this dashboard by name. */
  filters?: (ctx: { datasetId: number; chartId: (name: string) => number }) => FilterConfigItem[];
}

/** A native filter of an example dashboard, with its default value when given. */
function exampleFilter(id: string, name: string, filterType: NativeFilterType, datasetId: number, column: string | null, opts: { default?: unknown; excluded?: number[]; parents?: string[]; description?: string; controlValues?: NativeFilter['controlValues'] } = {}): NativeFilter {
  const f = newNativeFilter(`NATIVE_FILTER-${id}`, filterType);
  f.name = name;
  f.targets = [{ datasetId, ...(column ? { column: { name: column } } : {}) }];
  f.scope = { rootPath: ['ROOT_ID'], excluded: opts.excluded ?? [] };
  f.cascadeParentIds = (opts.parents ?? []).map((p) => `NATIVE_FILTER-${p}`);
  f.description = opts.description ?? '';
  f.controlValues = { ...f.controlValues, ...opts.controlValues };
  if (opts.default !== undefined) {
    const mask = dataMaskOf(f, opts.default);
    f.defaultDataMask = { extraFormData: mask.extraFormData, filterState: mask.filterState, ownState: {} };
  }
  return f;
}

const ALL = { time_range: 'No filter' };
const Y2014 = { time_range: '2014-01-01 : 2015-01-01' };
const COUNTRIES = { adhoc_filters: [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'region', operator: '!=', comparator: 'Aggregates' }] };
const chart = (name: string, viz_type: string, params: Params, width: number, height?: number): ExampleChart => ({ name, viz_type, params, width, height });

/** Superset's example dashboards, rebuilt on Meridian's examples: births, world health and sales. */
const EXAMPLE_DASHBOARDS: ExampleDashboard[] = [
  {
    slug: 'births',
    title: 'USA Births Names',
    dataset: 'birth_names',
    content: [
      [
        chart('Total births', 'big_number_total', { metric: 'sum__num', subheader: '1965–2008', ...ALL }, 3, 30),
        chart('Births per year', 'big_number', { x_axis: 'ds', time_grain_sqla: 'P1Y', metric: 'sum__num', ...ALL }, 4, 30),
        { markdown: '## Births\n\nNames given to babies in the ten largest states (and the rest of the USA) by year and gender, from the **birth_names** example dataset. Click a point to drill into its rows.', width: 5, height: 30 },
      ],
      [
        chart('Births by gender over time', 'echarts_timeseries_line', { x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['sum__num'], groupby: ['gender'], ...ALL }, 8),
        chart('Boys and girls', 'pie', { groupby: ['gender'], metric: 'sum__num', donut: true, ...ALL }, 4),
      ],
      [
        chart('Births by state', 'country_map', { entity: 'state', select_country: 'usa', metric: 'sum__num', ...ALL }, 5),
        chart('Top names', 'word_cloud', { series: 'name', metric: 'sum__num', row_limit: 60, ...ALL }, 4),
        chart('Top states', 'echarts_timeseries_bar', { x_axis: 'state', metrics: ['sum__num'], row_limit: 11, ...ALL }, 3),
      ],
      [
        chart('Most popular names', 'table', { groupby: ['name', 'gender'], metrics: ['sum__num'], row_limit: 100, ...ALL }, 6, 60),
        chart('Births by state and gender', 'pivot_table_v2', { groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['sum__num'], rowTotals: true, colTotals: true, ...ALL }, 6, 60),
      ],
    ],
    // Girls by default everywhere but the pie (which compares boys and girls); names follow the gender;
    // states and years narrow everything. Clicking a state's bar cross-filters the other charts.
    filters: ({ datasetId, chartId }) => [
      exampleFilter('gender', 'Gender', 'filter_select', datasetId, 'gender', { default: ['girl'], excluded: [chartId('Boys and girls')], controlValues: { multiSelect: false }, description: 'Boys or girls' }),
      exampleFilter('name', 'Name', 'filter_select', datasetId, 'name', { parents: ['gender'], controlValues: { searchAllOptions: true } }),
      exampleFilter('state', 'State', 'filter_select', datasetId, 'state', { excluded: [chartId('Top states')] }),
      exampleFilter('year', 'Years', 'filter_time', datasetId, null),
    ],
  },
  {
    slug: 'world_health',
    title: "World Bank's Data",
    dataset: 'wb_health_population',
    content: [
      {
        tab: 'Overview',
        rows: [
          [
            chart('World population, 2014', 'big_number_total', { metric: 'sum__SP_POP_TOTL', subheader: 'people in 2014', y_axis_format: '.3s', ...Y2014, ...COUNTRIES }, 4, 30),
            chart('Life expectancy, 2014', 'big_number_total', { metric: 'avg__SP_DYN_LE00_IN', subheader: 'years at birth', ...Y2014, ...COUNTRIES }, 4, 30),
            chart('Fertility rate, 2014', 'big_number_total', { metric: 'avg__SP_DYN_TFRT_IN', subheader: 'births per woman', ...Y2014, ...COUNTRIES }, 4, 30),
          ],
          [
            chart('Population by country, 2014', 'world_map', { entity: 'country_code', country_fieldtype: 'cca3', metric: 'sum__SP_POP_TOTL', ...Y2014, ...COUNTRIES }, 8, 60),
            chart('Population by region', 'sunburst_v2', { columns: ['region', 'country_name'], metric: 'sum__SP_POP_TOTL', ...Y2014, ...COUNTRIES }, 4, 60),
          ],
          [chart('Population growth by region', 'echarts_area', { x_axis: 'year', time_grain_sqla: 'P1Y', metrics: ['sum__SP_POP_TOTL'], groupby: ['region'], stack: 'Stack', ...ALL, ...COUNTRIES }, 12)],
        ],
      },
      {
        tab: 'Health',
        rows: [
          [
            chart('Life expectancy and fertility, 2014', 'bubble_v2', { entity: 'country_name', series: 'region', x: 'avg__SP_DYN_TFRT_IN', y: 'avg__SP_DYN_LE00_IN', size: 'sum__SP_POP_TOTL', row_limit: 100, ...Y2014, ...COUNTRIES }, 8, 60),
            chart('Life expectancy by region, 2014', 'box_plot', { groupby: ['region'], columns: ['country_name'], metrics: ['avg__SP_DYN_LE00_IN'], ...Y2014, ...COUNTRIES }, 4, 60),
          ],
          [
            chart('Life expectancy over time', 'echarts_timeseries_line', { x_axis: 'year', time_grain_sqla: 'P1Y', metrics: ['avg__SP_DYN_LE00_IN'], groupby: ['region'], ...ALL, ...COUNTRIES }, 8),
            chart('Countries by life expectancy, 2014', 'histogram_v2', { column: 'SP_DYN_LE00_IN', bins: 10, ...Y2014, ...COUNTRIES }, 4),
          ],
        ],
      },
    ],
  },
  {
    slug: 'sales',
    title: 'Sales Dashboard',
    dataset: 'cleaned_sales_data',
    content: [
      [
        chart('Total sales', 'big_number_total', { metric: 'sum__sales', ...ALL }, 4, 25),
        chart('Orders', 'big_number_total', { metric: 'count_distinct__order_number', ...ALL }, 4, 25),
        chart('Items sold', 'big_number_total', { metric: 'sum__quantity', ...ALL }, 4, 25),
      ],
      [
        chart('Sales by month and product line', 'echarts_timeseries_bar', { x_axis: 'order_date', time_grain_sqla: 'P1M', metrics: ['sum__sales'], groupby: ['product_line'], stack: 'Stack', ...ALL }, 8),
        chart('Deal size', 'pie', { groupby: ['deal_size'], metric: 'sum__sales', donut: true, ...ALL }, 4),
      ],
      [
        chart('Sales by country', 'table', { groupby: ['country'], metrics: ['sum__sales', 'count_distinct__order_number'], row_limit: 50, ...ALL }, 4, 60),
        chart('Product lines by deal size', 'heatmap_v2', { x_axis: 'product_line', groupby: 'deal_size', metric: 'sum__sales', ...ALL }, 8, 60),
      ],
      [chart('Order status', 'funnel', { groupby: ['status'], metric: 'count_distinct__order_number', ...ALL }, 6), chart('Sales by product line', 'treemap_v2', { groupby: ['product_line', 'deal_size'], metric: 'sum__sales', ...ALL }, 6)],
    ],
  },
];

/**
 * Creates the examples' dashboards (with their charts), published, when their slug is not taken yet;
 * idempotent. Needs the examples' datasets (ensureExampleDatasets); a dashboard whose dataset is
 * missing is skipped.
 *
 * @example await ensureExampleDashboards(services) // { created: ['births', 'world_health', 'sales'] }
 */
export async function ensureExampleDashboards(services: { db: MetadataDb }): Promise<{ created: string[] }> {
  const db = services.db;
  const charts = new ChartRepository(db);
  const dashboards = new DashboardRepository(db);
  const created: string[] = [];
  for (const d of EXAMPLE_DASHBOARDS) {
    if (await db.selectFrom('dashboards').select('id').where('slug', '=', d.slug).executeTakeFirst()) continue;
    const dataset = await db
      .selectFrom('tables')
      .innerJoin('dbs', 'dbs.id', 'tables.database_id')
      .select('tables.id')
      .where('dbs.database_name', '=', EXAMPLES_DATABASE_NAME)
      .where('tables.table_name', '=', d.dataset)
      .executeTakeFirst();
    if (!dataset) continue;
    const chartIds: number[] = [];
    const toCell = async (cell: Cell): Promise<RowCell> => {
      if ('markdown' in cell) return cell;
      const params = { viz_type: cell.viz_type, datasource: `${dataset.id}__table`, ...cell.params };
      const id = await charts.create({ slice_name: cell.name, viz_type: cell.viz_type, datasource_id: dataset.id, datasource_type: 'table', params: JSON.stringify(params) }, [], []);
      chartIds.push(id);
      return { chartId: id, sliceName: cell.name, width: cell.width, height: cell.height };
    };
    const rowsOf = async (rows: Cell[][]) => Promise.all(rows.map(async (cells) => { const out: RowCell[] = []; for (const c of cells) out.push(await toCell(c)); return out; }));
    const tabbed = 'tab' in (d.content[0] as object);
    const content = tabbed
      ? await Promise.all((d.content as Array<{ tab: string; rows: Cell[][] }>).map(async (t) => ({ tab: t.tab, rows: await rowsOf(t.rows) })))
      : await rowsOf(d.content as Cell[][]);
    const layout = layoutOfRows(d.title, content);
    const chartIdByName = (name: string) => {
      const found = Object.values(layout).find((c) => c.type === 'CHART' && c.meta?.sliceName === name);
      if (!found) throw new Error(`example dashboard ${d.slug} has no chart '${name}'`);
      return Number(found.meta!.chartId);
    };
    const filters = (d.filters?.({ datasetId: dataset.id, chartId: chartIdByName }) ?? []).map((f) => withScopeComputed(f, layout));
    await dashboards.create(
      { dashboard_title: d.title, slug: d.slug, published: true, position_json: JSON.stringify(positionFromLayout(layout)), json_metadata: JSON.stringify({ color_scheme: 'supersetColors', refresh_frequency: 0, timed_refresh_immune_slices: [], expanded_slices: {}, label_colors: {}, cross_filters_enabled: true, native_filter_configuration: filters, global_chart_configuration: { scope: { rootPath: ['ROOT_ID'], excluded: [] }, chartsInScope: chartIds } }) },
      { owners: [], roles: [], charts: chartIds },
    );
    created.push(d.slug);
  }
  return { created };
}
