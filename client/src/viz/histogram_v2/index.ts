import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { columnLabel } from '../shared/metrics';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformHistogram } from './transform-props';
import meta from './meta';

/** The raw values of the column (and group-bys), binned by the server's `histogram` post-processing. */
export function buildHistogramQuery(fd: FormData): QueryContext {
  const groupby = Array.isArray(fd.groupby) ? fd.groupby : [];
  const context = queryContextFromFormData({ ...fd, query_mode: 'raw', all_columns: [fd.column, ...groupby].filter(Boolean), groupby: [], metrics: [] });
  context.queries[0]!.post_processing = [{ operation: 'histogram', options: { column: fd.column ? columnLabel(fd.column) : '', groupby: groupby.map(columnLabel), bins: Number(fd.bins ?? 5), normalize: !!fd.normalize, cumulative: !!fd.cumulative } }];
  return context as QueryContext;
}

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
          [{ name: 'bins', type: 'SelectControl', label: 'Bins', freeForm: true, default: 5, choices: [5, 10, 20, 50, 100].map((n) => [n, String(n)] as const), description: 'The number of bins for the histogram' }],
          [{ name: 'normalize', type: 'CheckboxControl', label: 'Normalize', default: false }, { name: 'cumulative', type: 'CheckboxControl', label: 'Cumulative', default: false }],
        ],
      },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], ['show_value'], ['show_legend'], ['x_axis_title', 'y_axis_title'], ['y_axis_format']] },
    ],
  },
  defaultFormData: { bins: 5, row_limit: 10000, color_scheme: 'supersetColors' },
  buildQuery: buildHistogramQuery,
  transformProps: transformHistogram,
  loadChart: () => import('./HistogramChart'),
};

export default histogram;
