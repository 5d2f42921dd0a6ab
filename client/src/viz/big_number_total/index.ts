import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { BIG_NUMBER_DISPLAY } from '../big_number/index';
import { transformBigNumberTotal, type BigNumberProps } from '../big_number/transform-props';
import { svg } from '../shared/timeseries/plugin';
import type { ChartPlugin, QueryContext } from '../types';

const bigNumberTotal: ChartPlugin<BigNumberProps> = {
  key: 'big_number_total',
  name: 'Big Number',
  category: 'KPI',
  description: 'Showcases a single metric front-and-center. Big number is best used to call attention to a KPI or the one thing you want your audience to focus on.',
  tags: ['Additive', 'Business', 'Legacy', 'Percentages', 'Featured', 'Report', 'Popular'],
  thumbnail: svg('<text x="32" y="27" text-anchor="middle" font-size="18" font-weight="700" fill="#1FA8C9">42</text>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
  controlPanel: {
    sections: [{ label: 'Query', expanded: true, tab: 'data', controlSetRows: [['metric'], ['adhoc_filters'], ['time_range']] }, BIG_NUMBER_DISPLAY],
  },
  defaultFormData: { header_font_size: 0.4, subheader_font_size: 0.15 },
  // One aggregate over every row the filters keep: no group-by, no time column.
  buildQuery: (fd) => queryContextFromFormData({ ...fd, groupby: [], x_axis: undefined, granularity_sqla: undefined }) as QueryContext,
  transformProps: transformBigNumberTotal,
  loadChart: () => import('../big_number/BigNumberChart'),
};

export default bigNumberTotal;
