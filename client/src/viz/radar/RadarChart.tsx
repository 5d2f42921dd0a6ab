import { RadarChart } from 'echarts/charts';
import { LegendComponent, RadarComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([RadarChart, RadarComponent, LegendComponent, TooltipComponent]);
