import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { BIG_NUMBER_DISPLAY } from '../big_number/index';
import { transformBigNumberTotal, type BigNumberProps } from '../big_number/transform-props';
import type { ChartPlugin, QueryContext } from '../types';
import meta from './meta';

const bigNumberTotal: ChartPlugin<BigNumberProps> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['metric'], ['adhoc_filters'], ['time_range']] },
      {
        ...BIG_NUMBER_DISPLAY,
        controlSetRows: [
          ...BIG_NUMBER_DISPLAY.controlSetRows,
          [{ name: 'conditional_formatting', type: 'ConditionalFormattingControl', label: 'Conditional Formatting', default: [], renderTrigger: true, description: 'Apply conditional color formatting to metric' }],
        ],
      },
    ],
  },
  defaultFormData: { header_font_size: 0.4, subheader_font_size: 0.15 },
  // One aggregate over every row the filters keep: no group-by, no time column.
  buildQuery: (fd) => queryContextFromFormData({ ...fd, groupby: [], x_axis: undefined, granularity_sqla: undefined }) as QueryContext,
  transformProps: transformBigNumberTotal,
  loadChart: () => import('../big_number/BigNumberChart'),
};

export default bigNumberTotal;
