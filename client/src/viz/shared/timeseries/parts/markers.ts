import { MarkAreaComponent, MarkLineComponent } from 'echarts/components';

export default [MarkLineComponent, MarkAreaComponent];
