import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { columnLabel } from '../shared/metrics';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformHistogram } from './transform-props';
import { SHARED_CONTROLS } from '../shared/controls';
import { validateInteger } from '@meridian/contracts/rules/validators';
import meta from './meta';

/** The raw values of the column (and group-bys), binned by the server's `histogram` post-processing. */
export function buildHistogramQuery(fd: FormData): QueryContext {
  const groupby = Array.isArray(fd.groupby) ? fd.groupby : [];
  const context = queryContextFromFormData({ ...fd, query_mode: 'raw', all_columns: [fd.column, ...groupby].filter(Boolean), groupby: [], metrics: [] });
  context.queries[0]!.post_processing = [{ operation: 'histogram', options: { column: fd.column ? columnLabel(fd.column) : '', groupby: groupby.map(columnLabel), bins: Number(fd.bins ?? 5), normalize: !!fd.normalize, cumulative: !!fd.cumulative } }];
  return context as QueryContext;
}

/** Superset's Bins validator: a whole number ('Bins is expected to be an integer'). */
const binsInteger = (value: unknown) => {
  const error = validateInteger(value);
  return error ? `Bins ${error}` : false;
};

const numericColumns = ({ datasource }: { datasource: { columns: Array<{ column_name: string; type?: string | null; verbose_name?: string | null }> } | null }) =>
  (datasource?.columns ?? []).filter((c) => !c.type || /INT|NUM|DEC|FLOAT|DOUBLE|REAL/i.test(c.type)).map((c) => [c.column_name, c.verbose_name || c.column_name] as const);

const histogram: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'column', type: 'GroupByControl', label: 'Column', multi: false, choices: numericColumns, validators: [(v) => (v ? false : 'cannot be empty')], description: 'Numeric column used to calculate the histogram.' }],
          ['groupby'],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
          [{ name: 'bins', type: 'SelectControl', label: 'Bins', freeForm: true, default: 5, choices: [5, 10, 15, 20].map((n) => [n, String(n)] as const), validators: [binsInteger], description: 'The number of bins for the histogram' }],
          [
            {
              name: 'normalize',
              type: 'CheckboxControl',
              label: 'Normalize',
              default: false,
              description: "The normalize option transforms the histogram values into proportions or probabilities by dividing each bin's count by the total count of data points. This normalization process ensures that the resulting values sum up to 1, enabling a relative comparison of the data's distribution and providing a clearer understanding of the proportion of data points within each bin.",
            },
          ],
          [
            {
              name: 'cumulative',
              type: 'CheckboxControl',
              label: 'Cumulative',
              default: false,
              description: "The cumulative option allows you to see how your data accumulates over different values. When enabled, the histogram bars represent the running total of frequencies up to each bin. This helps you understand how likely it is to encounter values below a certain point. Keep in mind that enabling cumulative doesn't change your original data, it just changes the way the histogram is displayed.",
            },
          ],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          ['show_value'],
          ['show_legend'],
          ['x_axis_title'],
          // Superset's 'X Axis Format': the bins' edges.
          [{ name: 'x_axis_format', override: { ...SHARED_CONTROLS.y_axis_format, label: 'X Axis Format' } }],
          ['y_axis_title'],
          ['y_axis_format'],
        ],
      },
    ],
  },
  defaultFormData: { bins: 5, row_limit: 10000, color_scheme: 'supersetColors' },
  buildQuery: buildHistogramQuery,
  transformProps: transformHistogram,
  loadChart: () => import('./HistogramChart'),
};

export default histogram;
