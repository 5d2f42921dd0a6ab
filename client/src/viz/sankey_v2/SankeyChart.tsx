import { SankeyChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([SankeyChart, TooltipComponent]);
