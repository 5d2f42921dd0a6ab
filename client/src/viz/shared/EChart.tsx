import { init, use, type EChartsCoreOption, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

use([CanvasRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  /** The ECharts parts this chart type needs (echarts/charts and echarts/components), registered once. */
  use: any[];
  width: number;
  height: number;
  theme: 'light' | 'dark';
  onRendered?: () => void;
  onRenderError?: (error: Error) => void;
  /** ECharts events by name ('click', 'contextmenu', ...). */
  onEvents?: Record<string, (params: any) => void>;
}

/**
 * Draws wait their turn, one per task: charts whose answers arrive together (a dashboard) would otherwise be
 * initialised and drawn in one commit, holding the main thread for the sum of their draws.
 */
const drawQueue: Array<() => void> = [];
let drawChannel: MessageChannel | null = null;
function queueDraw(job: () => void): void {
  if (!drawChannel) {
    drawChannel = new MessageChannel();
    drawChannel.port1.onmessage = () => {
      try {
        drawQueue.shift()?.();
      } finally {
        if (drawQueue.length) drawChannel!.port2.postMessage(null);
      }
    };
  }
  drawQueue.push(job);
  if (drawQueue.length === 1) drawChannel.port2.postMessage(null);
}

/**
 * One ECharts canvas. Each chart type passes only the parts it uses, so a page loads only what its
 * charts draw. Resizes with its box, disposes on unmount, reports each finished draw of a new option
 * and any option error. Creating the instance and each new option are drawn in their own task (queueDraw).
 */
export function EChart({ option, use: parts, width, height, theme, onRendered, onRenderError, onEvents }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  // Set by each setOption; the next 'finished' reports the draw, so every new answer reports 'rendered'.
  const pending = useRef(false);
  const callbacks = useRef({ onRendered, onRenderError, onEvents });
  callbacks.current = { onRendered, onRenderError, onEvents };
  const size = useRef({ width, height });
  size.current = { width, height };

  useEffect(() => {
    let live = true;
    let instance: EChartsType | null = null;
    queueDraw(() => {
      if (!live || !el.current) return;
      use(parts);
      instance = init(el.current, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas', ...size.current });
      chart.current = instance;
      instance.on('finished', () => {
        if (!pending.current) return;
        pending.current = false;
        callbacks.current.onRendered?.();
      });
      for (const name of Object.keys(callbacks.current.onEvents ?? {})) instance.on(name, (params: unknown) => callbacks.current.onEvents?.[name]?.(params));
    });
    return () => {
      live = false;
      instance?.dispose();
      chart.current = null;
    };
    // The instance is made again when the theme or the parts change: ECharts cannot take a component into an
    // instance made before it was registered (a chart that starts zooming gets a new instance with the zoom part).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [theme, parts]);

  useEffect(() => {
    let live = true;
    // Queued after the instance's creation, so it finds the instance; a newer option cancels this one.
    queueDraw(() => {
      if (!live || !chart.current) return;
      try {
        pending.current = true;
        chart.current.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
      } catch (error) {
        callbacks.current.onRenderError?.(error as Error);
      }
    });
    return () => {
      live = false;
    };
  }, [option, theme, parts]);

  useEffect(() => {
    chart.current?.resize({ width, height });
  }, [width, height]);

  return <div ref={el} style={{ width, height }} data-testid="echart" data-parts={parts.length} />;
}
