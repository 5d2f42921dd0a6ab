import type { FormData } from '../../types';
import { widestLabel } from '../label-room';
import { chartTheme, legendPlace, legendStyle } from '../theme';

/** The zoom slider's thickness and the room kept for it beside the plot. */
const SLIDER_PX = 18;
const SLIDER_ROOM_PX = 26;
/** How far the zoom buttons (top right) reach into the chart: a legend on top stays clear of them. */
const TOOLBOX_PX = 56;

/**
 * A time-series chart's frame: the plot's grid, the legend where 'Orientation', 'Type' and 'Margin' put it, and with
 * 'Data Zoom' Superset's zoom: a slider along the x-axis (the y-axis of horizontal bars), the mouse wheel panning
 * rather than zooming, and the toolbox's 'zoom area' / 'restore zoom' buttons.
 * `names` are the series the legend lists; `rightAxis` keeps room for a second y-axis on the right.
 */
export function timeseriesFrame(
  fd: FormData,
  theme: 'light' | 'dark',
  opts: { names: readonly string[]; width: number; horizontal: boolean; yNameGap: number; yLabelWidth: number; stacked: boolean; rightAxis?: boolean },
) {
  const showLegend = fd.show_legend !== false && opts.names.length > 1;
  const legendAt = showLegend ? legendPlace(fd.legendOrientation) : null;
  // Room beside the plot for a legend on its left or right: its widest name, the symbol and some air.
  const legendWidth = legendAt === 'left' || legendAt === 'right' ? Math.min(widestLabel(opts.names) + 48, opts.width * 0.4) : 0;
  // 'Margin': more room between the legend and the plot.
  const legendMargin = legendAt ? Math.max(0, Number(fd.legendMargin) || 0) : 0;
  const zoomable = !!fd.zoomable;
  const baseLeft = fd.y_axis_title && !opts.horizontal ? Math.max(32, opts.yNameGap - opts.yLabelWidth + 20) : fd.y_axis_title ? 64 : 16;
  const legendBottom = legendAt === 'bottom' ? 28 + legendMargin : 0;
  const grid = {
    // The zoom buttons stand in the top right corner: the top tick labels (a secondary axis' too) keep below them.
    top: legendAt === 'top' ? 40 + legendMargin : zoomable ? 40 : 20,
    right: (opts.rightAxis ? 40 : 20) + (legendAt === 'right' ? legendWidth + legendMargin : 0) + (zoomable && opts.horizontal ? SLIDER_ROOM_PX : 0),
    bottom: (fd.x_axis_title ? 44 : 28) + legendBottom + (zoomable && !opts.horizontal ? SLIDER_ROOM_PX : 0),
    left: baseLeft + (legendAt === 'left' ? legendWidth + legendMargin : 0),
    containLabel: true,
  };
  const legend = {
    ...legendStyle(theme, { show: showLegend, orientation: legendAt ?? 'top', type: fd.legendType === 'plain' ? 'plain' : 'scroll' }),
    // A legend on top keeps clear of the zoom buttons, still centred.
    ...(zoomable && legendAt === 'top' ? { width: Math.max(80, opts.width - 2 * TOOLBOX_PX) } : {}),
    data: [...opts.names],
  };
  const wheel = { zoomOnMouseWheel: false, moveOnMouseWheel: true };
  const dataZoom = zoomable
    ? [
        opts.horizontal
          ? { type: 'slider', yAxisIndex: 0, start: 0, end: 100, width: SLIDER_PX, right: 4 + (legendAt === 'right' ? legendWidth + legendMargin : 0) }
          : { type: 'slider', xAxisIndex: 0, start: 0, end: 100, height: SLIDER_PX, bottom: 4 + legendBottom },
        { type: 'inside', yAxisIndex: 0, ...wheel },
        { type: 'inside', xAxisIndex: 0, ...wheel },
      ]
    : undefined;
  const toolbox = zoomable
    ? {
        show: true,
        top: 0,
        right: 5,
        iconStyle: { borderColor: chartTheme(theme).subtleText },
        // A stacked chart's values zoom along x only, as Superset's.
        feature: { dataZoom: { ...(opts.stacked ? { yAxisIndex: false } : {}), title: { zoom: 'zoom area', back: 'restore zoom' } } },
      }
    : undefined;
  return { grid, legend, dataZoom, toolbox };
}
