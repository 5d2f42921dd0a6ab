import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { useEffect } from 'react';
import { EChart } from '../shared/EChart';
import { chartTheme } from '../shared/theme';
import type { ChartProps } from '../types';
import type { BigNumberProps } from './transform-props';

const PARTS = [LineChart, GridComponent, TooltipComponent];

/** A big number (sized by the box, as Superset's header_font_size proportions), with its trendline below. */
export default function BigNumberChart({ transformed: p, width, height, theme, onRendered, onRenderError }: ChartProps<BigNumberProps>) {
  const t = chartTheme(theme);
  const trendHeight = p.trendline ? Math.round(height * 0.45) : 0;
  const textHeight = height - trendHeight;
  const headerSize = Math.max(14, Math.min(textHeight * p.headerFontSize * (p.trendline ? 1.4 : 1.2), width / Math.max(4, (p.bigNumber ?? '').length * 0.62)));
  const subSize = Math.max(11, Math.min(textHeight * p.subheaderFontSize, 28));
  useEffect(() => {
    if (!p.trendline) onRendered?.();
  }, [p.trendline, onRendered]);
  return (
    <div style={{ width, height, display: 'flex', flexDirection: 'column', overflow: 'hidden' }} data-testid="big-number">
      <div style={{ height: textHeight, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 4, color: t.text }}>
        {p.timestamp && <div style={{ fontSize: subSize, color: t.subtleText }} data-testid="big-number-timestamp">{p.timestamp}</div>}
        <div style={{ fontSize: headerSize, fontWeight: 600, lineHeight: 1.1, whiteSpace: 'nowrap', color: p.color ?? undefined }}>{p.bigNumber ?? 'No data'}</div>
        {p.comparison && <div style={{ fontSize: subSize, color: p.comparison.positive ? '#2f9e44' : '#e03131' }}>{p.comparison.text}</div>}
        {p.subheader && <div style={{ fontSize: subSize, color: t.subtleText }}>{p.subheader}</div>}
      </div>
      {p.trendline && <EChart option={p.trendline} use={PARTS} width={width} height={trendHeight} theme={theme} onRendered={onRendered} onRenderError={onRenderError} />}
    </div>
  );
}
