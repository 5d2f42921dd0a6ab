import { GraphChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([GraphChart, TooltipComponent]);
