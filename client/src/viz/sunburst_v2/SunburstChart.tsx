import { SunburstChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([SunburstChart, TooltipComponent]);
