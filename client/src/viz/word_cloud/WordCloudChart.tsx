import 'echarts-wordcloud';
import { TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

// echarts-wordcloud registers its series on import.
export default echartsComponent([TooltipComponent]);
