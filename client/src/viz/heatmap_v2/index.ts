import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { SORT_AXIS_CHOICES, transformHeatmap } from './transform-props';
import meta from './meta';

const SCALE_INTERVALS: ReadonlyArray<readonly [number, string]> = [[-1, 'Auto'], ...Array.from({ length: 50 }, (_, i) => [i + 1, String(i + 1)] as const)];
const MARGINS: ReadonlyArray<readonly [string | number, string]> = [['auto', 'Auto'], ...[50, 75, 100, 125, 150, 200].map((n) => [n, String(n)] as const)];

/**
 * The x axis and one y column with the metric; 'Sort X/Y Axis' by the axis orders the query by that column (ascending
 * or not), so the row limit keeps the first values, as Superset's buildQuery does; a sort by the metric is applied
 * after the query.
 */
export function buildHeatmapQuery(fd: FormData): QueryContext {
  const groupby = Array.isArray(fd.groupby) ? fd.groupby.slice(0, 1) : fd.groupby ? [fd.groupby] : [];
  const context = queryContextFromFormData({ ...fd, groupby }) as QueryContext;
  const query = context.queries[0]!;
  const columns = query.columns as unknown[];
  const orderby: Array<[unknown, boolean]> = [];
  for (const [sort, column] of [[fd.sort_x_axis ?? 'alpha_asc', columns[0]], [fd.sort_y_axis ?? 'alpha_asc', columns[1]]] as const) {
    if (typeof sort === 'string' && !sort.includes('value') && column !== undefined) orderby.push([column, sort.includes('asc')]);
  }
  query.orderby = orderby;
  return context;
}

const heatmap: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          ['x_axis'],
          ['time_grain_sqla'],
          [{ name: 'groupby', override: { label: 'Y-Axis', description: 'Dimension to use on y-axis.', multi: false, validators: [(v) => (v && (!Array.isArray(v) || v.length) ? false : 'cannot be empty')] } }],
          ['metric'],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
          // Superset sorts by the axis in the query (so the row limit keeps the first values) and by the metric after it.
          [{ name: 'sort_x_axis', type: 'SelectControl', label: 'Sort X Axis', choices: SORT_AXIS_CHOICES, clearable: false, default: 'alpha_asc' }],
          [{ name: 'sort_y_axis', type: 'SelectControl', label: 'Sort Y Axis', choices: SORT_AXIS_CHOICES, clearable: false, default: 'alpha_asc' }],
          [
            {
              name: 'normalize_across',
              type: 'SelectControl',
              label: 'Normalize Across',
              default: 'heatmap',
              clearable: false,
              renderTrigger: true,
              choices: [['heatmap', 'heatmap'], ['x', 'x'], ['y', 'y']],
              description: 'Color will be shaded based the normalized (0% to 100%) value of a given cell against the other cells in the selected range: x: values are normalized within each column; y: values are normalized within each row; heatmap: values are normalized across the entire heatmap',
            },
          ],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'legend_type', type: 'SelectControl', label: 'Legend Type', default: 'continuous', clearable: false, renderTrigger: true, choices: [['continuous', 'Continuous'], ['piecewise', 'Piecewise']] }],
          ['linear_color_scheme'],
          [{ name: 'xscale_interval', type: 'SelectControl', label: 'XScale Interval', default: -1, clearable: false, renderTrigger: true, choices: SCALE_INTERVALS, description: 'Number of steps to take between ticks when displaying the X scale' }],
          [{ name: 'yscale_interval', type: 'SelectControl', label: 'YScale Interval', default: -1, clearable: false, renderTrigger: true, choices: SCALE_INTERVALS, description: 'Number of steps to take between ticks when displaying the Y scale' }],
          [{ name: 'left_margin', type: 'SelectControl', label: 'Left Margin', freeForm: true, clearable: false, default: 'auto', renderTrigger: true, choices: MARGINS, description: 'Left margin, in pixels, allowing for more room for axis labels' }],
          [{ name: 'bottom_margin', type: 'SelectControl', label: 'Bottom Margin', freeForm: true, clearable: false, default: 'auto', renderTrigger: true, choices: MARGINS, description: 'Bottom margin, in pixels, allowing for more room for axis labels' }],
          [{ name: 'value_bounds', type: 'BoundsControl', label: 'Value bounds', default: [null, null], renderTrigger: true, description: 'Hard value bounds applied for color coding.' }],
          [{ name: 'y_axis_format', override: { label: 'Value Format' } }],
          ['x_axis_time_format'],
          ['currency_format'],
          [{ name: 'show_legend', type: 'CheckboxControl', label: 'Legend', default: true, renderTrigger: true, description: 'Whether to display the legend (toggles)' }],
          [{ name: 'show_percentage', type: 'CheckboxControl', label: 'Show percentage', default: true, renderTrigger: true, description: 'Whether to include the percentage in the tooltip' }],
          [{ name: 'show_values', type: 'CheckboxControl', label: 'Show Values', default: false, renderTrigger: true, description: 'Whether to display the numerical values within the cells' }],
          [{ name: 'normalized', type: 'CheckboxControl', label: 'Normalized', default: false, renderTrigger: true, description: 'Whether to apply a normal distribution based on rank on the color scale' }],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 10000, linear_color_scheme: 'superset_seq_1', normalize_across: 'heatmap', sort_x_axis: 'alpha_asc', sort_y_axis: 'alpha_asc' },
  buildQuery: buildHeatmapQuery,
  transformProps: transformHeatmap,
  loadChart: () => import('./HeatmapChart'),
};

export default heatmap;
