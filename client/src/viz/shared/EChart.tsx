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
  /**
   * For a chart that goes on drawing after ECharts says 'finished' (a word cloud places its words in later
   * tasks): given the canvases its option made while set, resolves once the drawing is done; 'rendered' waits.
   */
  drawnAfter?: (canvases: HTMLCanvasElement[]) => Promise<void>;
}

/** Runs `run`, adding to `made` the canvases made meanwhile (a word cloud's layout draws on one of its own). */
function collectCanvases(run: () => void, made: HTMLCanvasElement[]): void {
  const create = document.createElement;
  document.createElement = function createElement(this: Document, tag: string, options?: ElementCreationOptions) {
    const element = create.call(this, tag, options);
    if (element instanceof HTMLCanvasElement) made.push(element);
    return element;
  } as typeof document.createElement;
  try {
    run();
  } finally {
    document.createElement = create;
  }
}

/**
 * Draws wait their turn, in tasks of about DRAW_BUDGET_MS: charts whose answers arrive together (a dashboard)
 * would otherwise be initialised and drawn in one commit, holding the main thread for the sum of their draws.
 * One draw a task was slower: each task let the page render a frame, and a frame of a page of 50 canvases costs
 * the main thread 5-10 ms (style, paint, layerize, commit); a 50-chart dashboard drew ~85 frames while loading.
 */
const drawQueue: Array<() => void> = [];
/** The long-task threshold: a task this long still lets a scroll or a click through in good time. */
const DRAW_BUDGET_MS = 50;
let drawChannel: MessageChannel | null = null;
function queueDraw(job: () => void): void {
  if (!drawChannel) {
    drawChannel = new MessageChannel();
    drawChannel.port1.onmessage = () => {
      const start = performance.now();
      try {
        do drawQueue.shift()?.();
        while (drawQueue.length && performance.now() - start < DRAW_BUDGET_MS);
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
export function EChart({ option, use: parts, width, height, theme, onRendered, onRenderError, onEvents, drawnAfter }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  // Set by each setOption; the next 'finished' reports the draw, so every new answer reports 'rendered'.
  const pending = useRef(false);
  // What the last setOption's drawing still waits for after 'finished' (see drawnAfter), and which option it was.
  const drawing = useRef<{ done: Promise<void>; generation: number } | null>(null);
  const generation = useRef(0);
  // 'rendered' once the drawing is done; a resize that lays the same option out anew hands over to its drawing.
  const reportWhenDrawn = async (waited: { done: Promise<void>; generation: number }): Promise<void> => {
    await waited.done;
    const now = drawing.current;
    if (!now || now.generation !== waited.generation || !chart.current) return;
    if (now !== waited) return reportWhenDrawn(now);
    // What was placed last is painted now, not at the next frame, so 'rendered' pictures the whole drawing.
    chart.current.getZr().flush();
    callbacks.current.onRendered?.();
  };
  // Runs `run` (a setOption or a resize) as the drawing to wait for. Set before it runs, as ECharts may say
  // 'finished' while still in it; drawnAfter is handed the canvases `run` made once it is over.
  const drawWith = (run: () => void, after: NonNullable<EChartProps['drawnAfter']>, of: number): void => {
    const made: HTMLCanvasElement[] = [];
    drawing.current = { done: Promise.resolve().then(() => after(made)), generation: of };
    collectCanvases(run, made);
  };
  const callbacks = useRef({ onRendered, onRenderError, onEvents, drawnAfter });
  callbacks.current = { onRendered, onRenderError, onEvents, drawnAfter };
  const size = useRef({ width, height });
  size.current = { width, height };
  // The tooltip is added on the pointer's first move over the chart, not with each option: making it reads the page's
  // layout (ECharts measures where its box sits), one forced layout per chart while a dashboard's charts draw.
  const tooltip = useRef<{ armed: boolean; deferred: unknown }>({ armed: false, deferred: undefined });

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
        if (drawing.current) void reportWhenDrawn(drawing.current);
        else callbacks.current.onRendered?.();
      });
      for (const name of Object.keys(callbacks.current.onEvents ?? {})) instance.on(name, (params: unknown) => callbacks.current.onEvents?.[name]?.(params));
      const arm = (event: { offsetX: number; offsetY: number }) => {
        if (tooltip.current.armed || !instance) return;
        tooltip.current.armed = true;
        const deferred = tooltip.current.deferred;
        tooltip.current.deferred = undefined;
        if (deferred === undefined) return;
        instance.setOption({ tooltip: deferred });
        instance.dispatchAction({ type: 'showTip', x: event.offsetX, y: event.offsetY });
      };
      instance.getZr().on('mousemove', arm);
      instance.getZr().on('mousedown', arm);
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
        const { tooltip: tip, ...rest } = option as EChartsCoreOption & { tooltip?: unknown };
        const defer = tip !== undefined && !tooltip.current.armed;
        tooltip.current.deferred = defer ? tip : undefined;
        const set = () => chart.current!.setOption({ backgroundColor: 'transparent', ...(defer ? rest : option) }, { notMerge: true });
        const after = callbacks.current.drawnAfter;
        generation.current += 1;
        if (after) drawWith(set, after, generation.current);
        else {
          drawing.current = null;
          set();
        }
      } catch (error) {
        callbacks.current.onRenderError?.(error as Error);
      }
    });
    return () => {
      live = false;
    };
  }, [option, theme, parts]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    const resize = () => instance.resize({ width, height });
    const after = callbacks.current.drawnAfter;
    const current = drawing.current;
    if (!after || !current) return resize();
    // A resize lays a word cloud out again (the layout under way is dropped): its drawing is the one to wait for.
    drawWith(resize, after, current.generation);
  }, [width, height]);

  return <div ref={el} style={{ width, height }} data-testid="echart" data-parts={parts.length} />;
}
