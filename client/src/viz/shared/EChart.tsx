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
 * One ECharts canvas. Each chart type passes only the parts it uses, so a page loads only what its
 * charts draw. Resizes with its box, disposes on unmount, reports each finished draw of a new option
 * and any option error.
 */
export function EChart({ option, use: parts, width, height, theme, onRendered, onRenderError, onEvents }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  // Set by each setOption; the next 'finished' reports the draw, so every new answer reports 'rendered'.
  const pending = useRef(false);
  const callbacks = useRef({ onRendered, onRenderError, onEvents });
  callbacks.current = { onRendered, onRenderError, onEvents };

  useEffect(() => {
    use(parts);
    const instance = init(el.current!, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('finished', () => {
      if (!pending.current) return;
      pending.current = false;
      callbacks.current.onRendered?.();
    });
    for (const name of Object.keys(callbacks.current.onEvents ?? {})) instance.on(name, (params: unknown) => callbacks.current.onEvents?.[name]?.(params));
    return () => {
      instance.dispose();
      chart.current = null;
    };
    // The instance is made again only when the theme changes; parts are fixed per chart type.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [theme]);

  useEffect(() => {
    try {
      pending.current = true;
      chart.current?.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
    } catch (error) {
      callbacks.current.onRenderError?.(error as Error);
    }
  }, [option, theme]);

  useEffect(() => {
    chart.current?.resize({ width, height });
  }, [width, height]);

  return <div ref={el} style={{ width, height }} data-testid="echart" />;
}
