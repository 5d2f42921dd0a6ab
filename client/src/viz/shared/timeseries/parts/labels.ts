import { LabelLayout } from 'echarts/features';

// ECharts lays out labels (hides those that overlap: `labelLayout.hideOverlap`) only with this feature.
export default [LabelLayout];
