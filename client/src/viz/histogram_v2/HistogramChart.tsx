import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([BarChart, GridComponent, LegendComponent, TooltipComponent]);
