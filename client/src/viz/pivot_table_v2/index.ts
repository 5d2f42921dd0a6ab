import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { SHARED_CONTROLS, columnChoices } from '../shared/controls';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformPivot, type PivotProps } from './transform-props';
import meta from './meta';

export function buildPivotQuery(fd: FormData): QueryContext {
  const rows = Array.isArray(fd.groupbyRows) ? fd.groupbyRows : [];
  const cols = Array.isArray(fd.groupbyColumns) ? fd.groupbyColumns : [];
  const context = queryContextFromFormData({ ...fd, groupby: [...rows, ...cols], columns: [] });
  const metrics = context.queries[0]!.metrics as unknown[];
  if (metrics.length) context.queries[0]!.orderby = [[metrics[0], false]];
  return context as QueryContext;
}


const pivotTable: ChartPlugin<PivotProps> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'groupbyRows', type: 'GroupByControl', label: 'Rows', multi: true, choices: columnChoices }],
          [{ name: 'groupbyColumns', type: 'GroupByControl', label: 'Columns', multi: true, choices: columnChoices }],
          ['metrics'],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
        ],
      },
      {
        label: 'Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'aggregateFunction', type: 'SelectControl', label: 'Aggregation function', default: 'Sum', renderTrigger: true, choices: [['Sum', 'Sum'], ['Count', 'Count'], ['Average', 'Average'], ['Minimum', 'Minimum'], ['Maximum', 'Maximum']], description: 'Aggregate function to apply when pivoting and computing the total rows and columns' }],
          [{ name: 'rowTotals', type: 'CheckboxControl', label: 'Show rows total', default: false, renderTrigger: true }, { name: 'colTotals', type: 'CheckboxControl', label: 'Show columns total', default: false, renderTrigger: true }],
          [{ name: 'rowSubTotals', type: 'CheckboxControl', label: 'Show rows subtotal', default: false, renderTrigger: true, description: 'Display row level subtotal' }, { name: 'colSubTotals', type: 'CheckboxControl', label: 'Show columns subtotal', default: false, renderTrigger: true, description: 'Display column level subtotal' }],
          [{ name: 'valueFormat', override: { ...SHARED_CONTROLS.number_format, label: 'Value format' } }],
          ['currency_format'],
          [{ name: 'date_format', override: { ...SHARED_CONTROLS.x_axis_time_format, label: 'Date format' } }],
        ],
      },
    ],
  },
  defaultFormData: { aggregateFunction: 'Sum', row_limit: 10000 },
  buildQuery: buildPivotQuery,
  transformProps: transformPivot,
  loadChart: () => import('./PivotTableChart'),
};

export default pivotTable;
