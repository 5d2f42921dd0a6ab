import 'echarts-wordcloud';
import { TooltipComponent } from 'echarts/components';
import { echartsComponent } from '../shared/echarts-chart';

/**
 * The layout places the words in later tasks, on a canvas of its own, and says 'wordcloudstop' there when the
 * last is placed (or the layout is dropped for a newer one): the cloud is drawn then, not at ECharts' 'finished'.
 */
const layoutStopped = (canvases: HTMLCanvasElement[]) =>
  new Promise<void>((resolve) => {
    if (!canvases.length) return resolve();
    for (const canvas of canvases) canvas.addEventListener('wordcloudstop', () => resolve(), { once: true });
  });

// echarts-wordcloud registers its series on import.
export default echartsComponent([TooltipComponent], layoutStopped);
