import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { metricLabel } from '../shared/metrics';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformBoxPlot } from './transform-props';
import { SHARED_CONTROLS } from '../shared/controls';
import meta from './meta';

/**
 * The metrics per (group-by, distribute-across) row, then the server's `boxplot` post-processing reduces
 * each group-by group to its statistics.
 */
export function buildBoxPlotQuery(fd: FormData): QueryContext {
  const groupby = Array.isArray(fd.groupby) ? fd.groupby : [];
  const across = Array.isArray(fd.columns) ? fd.columns : [];
  const context = queryContextFromFormData({ ...fd, groupby: [...groupby, ...across], columns: [] });
  const whisker = String(fd.whiskerOptions ?? 'Tukey');
  const percentiles = /^(\d+)\/(\d+) percentiles$/.exec(whisker);
  context.queries[0]!.post_processing = [
    {
      operation: 'boxplot',
      options: {
        groupby,
        metrics: (Array.isArray(fd.metrics) ? fd.metrics : []).map(metricLabel),
        whisker_type: percentiles ? 'percentile' : whisker === 'Min/max (no outliers)' ? 'min/max' : 'tukey',
        ...(percentiles ? { percentiles: [Number(percentiles[1]), Number(percentiles[2])] } : {}),
      },
    },
  ];
  return context as QueryContext;
}

const boxPlot: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [
            {
              name: 'columns',
              override: {
                label: 'Distribute across',
                description: 'Columns to calculate distribution across.',
                validators: [(v) => (Array.isArray(v) && v.length ? false : 'cannot be empty')],
                // A new box plot distributes across the dataset's default time column (Superset's initialValue).
                initialValue: ({ datasource }) => {
                  const column = datasource?.main_dttm_col || datasource?.columns.find((c) => c.is_dttm)?.column_name;
                  return column ? [column] : undefined;
                },
              },
            },
          ],
          [{ name: 'groupby', override: { label: 'Dimensions', description: 'Categories to group by on the x-axis.' } }],
          ['metrics'],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
          [{ name: 'whiskerOptions', type: 'SelectControl', label: 'Whisker/outlier options', default: 'Tukey', freeForm: true, choices: [['Tukey', 'Tukey'], ['Min/max (no outliers)', 'Min/max (no outliers)'], ['2/98 percentiles', '2/98 percentiles'], ['9/91 percentiles', '9/91 percentiles']], description: 'Determines how whiskers and outliers are calculated.' }],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          ['x_ticks_layout'],
          ['number_format'],
          [{ name: 'date_format', override: { ...SHARED_CONTROLS.x_axis_time_format, label: 'Date format' } }],
        ],
      },
    ],
  },
  defaultFormData: { whiskerOptions: 'Tukey', row_limit: 10000, color_scheme: 'supersetColors' },
  buildQuery: buildBoxPlotQuery,
  transformProps: transformBoxPlot,
  loadChart: () => import('./BoxPlotChart'),
};

export default boxPlot;
