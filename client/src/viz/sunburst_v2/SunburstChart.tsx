import { SunburstChart } from 'echarts/charts';
import { GraphicComponent, TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

// GraphicComponent writes 'Show Total's total in the centre.
export default echartsComponent([SunburstChart, TooltipComponent, GraphicComponent]);
