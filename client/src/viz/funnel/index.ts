import { buildPieQuery } from '../pie/index';
import type { ChartPlugin } from '../types';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { FUNNEL_LABEL_TYPES, funnelLabelType, transformFunnel } from './transform-props';
import meta from './meta';

const funnel: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [
          ['groupby'],
          ['metric'],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 10 } }],
          [{ name: 'sort_by_metric', override: { description: 'Whether to sort results by the selected metric in descending order.' } }],
          [
            {
              name: 'percent_calculation_type',
              type: 'SelectControl',
              label: '% calculation',
              default: 'first_step',
              renderTrigger: true,
              choices: [['first_step', 'Calculate from first step'], ['prev_step', 'Calculate from previous step'], ['total', 'Percent of total']],
              description: 'Display percents in the label and tooltip as the percent of the total value, from the first step of the funnel, or from the previous step in the funnel.',
            },
          ],
        ],
      },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          // Superset's legend section less its 'Type' (the funnel's drops it).
          ['show_legend'],
          ['legendOrientation'],
          ['legendMargin'],
          // Superset stores the label contents as its enum's numbers; an earlier Meridian stored their names.
          [{ name: 'label_type', type: 'SelectControl', label: 'Label Contents', default: 0, clearable: false, renderTrigger: true, choices: FUNNEL_LABEL_TYPES, description: 'What should be shown as the label', fromStored: (v) => funnelLabelType(v, 0) }],
          [{ name: 'tooltip_label_type', type: 'SelectControl', label: 'Tooltip Contents', default: 5, clearable: false, renderTrigger: true, choices: FUNNEL_LABEL_TYPES.slice(0, 6), description: 'What should be shown as the tooltip label', fromStored: (v) => funnelLabelType(v, 5) }],
          ['number_format'],
          ['currency_format'],
          [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show Labels', default: true, renderTrigger: true, description: 'Whether to display the labels.' }],
          [{ name: 'show_tooltip_labels', type: 'CheckboxControl', label: 'Show Tooltip Labels', default: true, renderTrigger: true, description: 'Whether to display the tooltip labels.' }],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 10, sort_by_metric: true, label_type: 0, percent_calculation_type: 'first_step', color_scheme: 'supersetColors' },
  buildQuery: buildPieQuery,
  transformProps: transformFunnel,
  loadChart: () => import('./FunnelChart'),
};

export default funnel;
