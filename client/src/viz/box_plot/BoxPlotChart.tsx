import { BoxplotChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([BoxplotChart, ScatterChart, GridComponent, LegendComponent, TooltipComponent]);
