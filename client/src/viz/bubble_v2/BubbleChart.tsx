import { ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([ScatterChart, GridComponent, LegendComponent, TooltipComponent]);
