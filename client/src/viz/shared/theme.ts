/** Text, axis and grid colours for ECharts in the light and dark themes (the app's Mantine palette). */
export interface ChartTheme {
  text: string;
  subtleText: string;
  axisLine: string;
  splitLine: string;
  tooltipBackground: string;
  tooltipBorder: string;
  background: string;
  /** A map's regions without a value (Superset's world map draws them in its border grey). */
  noData: string;
}

const LIGHT: ChartTheme = { text: '#212529', subtleText: '#6b7280', axisLine: '#ced4da', splitLine: '#e9ecef', tooltipBackground: '#ffffff', tooltipBorder: '#dee2e6', background: 'transparent', noData: '#dee2e6' };
const DARK: ChartTheme = { text: '#e9ecef', subtleText: '#a6a7ab', axisLine: '#5c5f66', splitLine: '#373a40', tooltipBackground: '#25262b', tooltipBorder: '#424242', background: 'transparent', noData: '#3f4147' };

export function chartTheme(theme: 'light' | 'dark'): ChartTheme {
  return theme === 'dark' ? DARK : LIGHT;
}

/** Base ECharts option pieces every chart type starts from (text colour, tooltip look). */
export function echartsBase(theme: 'light' | 'dark') {
  const t = chartTheme(theme);
  return {
    backgroundColor: t.background,
    textStyle: { color: t.text, fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    tooltip: { backgroundColor: t.tooltipBackground, borderColor: t.tooltipBorder, textStyle: { color: t.text, fontSize: 12 } },
  };
}

/** An axis styled for the theme. */
export function axisStyle(theme: 'light' | 'dark') {
  const t = chartTheme(theme);
  return {
    axisLine: { lineStyle: { color: t.axisLine } },
    axisTick: { lineStyle: { color: t.axisLine } },
    axisLabel: { color: t.subtleText, hideOverlap: true },
    splitLine: { lineStyle: { color: t.splitLine } },
    nameTextStyle: { color: t.subtleText },
  };
}

/** Superset's legend orientations; anything else is the top. */
export const legendPlace = (value: unknown): 'top' | 'bottom' | 'left' | 'right' => (value === 'bottom' || value === 'left' || value === 'right' ? value : 'top');

/** A legend styled for the theme: scrolling, at the top unless told otherwise. */
export function legendStyle(theme: 'light' | 'dark', opts: { show?: boolean; orientation?: 'top' | 'bottom' | 'left' | 'right'; type?: 'scroll' | 'plain' } = {}) {
  const t = chartTheme(theme);
  const orientation = opts.orientation ?? 'top';
  return {
    show: opts.show ?? true,
    type: opts.type ?? 'scroll',
    orient: orientation === 'left' || orientation === 'right' ? 'vertical' : 'horizontal',
    [orientation]: 0,
    ...(orientation === 'top' || orientation === 'bottom' ? { left: 'center' } : { top: 'middle' }),
    textStyle: { color: t.text },
    pageTextStyle: { color: t.subtleText },
    pageIconColor: t.text,
    pageIconInactiveColor: t.axisLine,
  };
}
