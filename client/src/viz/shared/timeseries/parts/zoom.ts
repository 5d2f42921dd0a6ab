import { DataZoomComponent, ToolboxComponent } from 'echarts/components';

// 'Data Zoom': the slider and wheel (DataZoom) and the toolbox's 'zoom area' / 'restore zoom' buttons (Toolbox).
export default [DataZoomComponent, ToolboxComponent];
