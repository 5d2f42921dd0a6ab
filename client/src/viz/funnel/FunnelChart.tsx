import { FunnelChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

export default echartsComponent([FunnelChart, LegendComponent, TooltipComponent]);
