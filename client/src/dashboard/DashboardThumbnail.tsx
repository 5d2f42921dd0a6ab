import { GRID_ID, layoutFromPosition, type Component, type LayoutMap } from '@meridian/contracts/dashboard/layout-reducer';
import { GRID_BASE_UNIT, GRID_COLUMN_COUNT } from '@meridian/contracts/rules/constants';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import classes from './dashboard.module.css';

/** The width a dashboard's grid is drawn at on a wide screen: the miniature is the grid at this width, scaled. */
const GRID_WIDTH = 1200;
const DEFAULT_CHART_HEIGHT = 50;

function parse(text: string | null): LayoutMap {
  try {
    return layoutFromPosition(text ? (JSON.parse(text) as Record<string, unknown>) : null);
  } catch {
    return {};
  }
}

/**
 * A dashboard's layout in miniature (the dashboards list's card view): its rows, charts, text, headers and
 * dividers where they sit, the first tab of tabs, scaled to the card. Nothing is fetched.
 */
export function DashboardThumbnail({ positionJson, height = 150 }: { positionJson: string | null; height?: number }) {
  const layout = useMemo(() => parse(positionJson), [positionJson]);
  const { ref, width } = useElementSize();
  const scale = width ? width / GRID_WIDTH : 0;
  // Widths are shares of the parent (a row spans its parent's columns); each box gives up the 3 px gap beside it.
  const span = (cols: number, parentCols: number) => `calc(${(cols / parentCols) * 100}% - 3px)`;
  const box = (c: Component, parentCols = GRID_COLUMN_COUNT): React.ReactNode => {
    const cols = Math.min(Number(c.meta?.width ?? (c.type === 'ROW' || c.type === 'TABS' || c.type === 'TAB' ? parentCols : 4)), parentCols);
    const h = Number(c.meta?.height ?? DEFAULT_CHART_HEIGHT) * GRID_BASE_UNIT * scale;
    const kids = (c.children ?? []).map((id) => layout[id]).filter((k): k is Component => !!k);
    switch (c.type) {
      case 'ROW':
        return (
          <div key={c.id} className={classes.thumbRow}>
            {kids.map((k) => box(k, parentCols))}
          </div>
        );
      case 'COLUMN':
        return (
          <div key={c.id} className={classes.thumbColumn} style={{ width: span(cols, parentCols) }}>
            {kids.map((k) => box(k, cols))}
          </div>
        );
      case 'TABS':
        return (
          <div key={c.id} className={classes.thumbTabs}>
            {kids[0] ? box(kids[0], parentCols) : null}
          </div>
        );
      case 'TAB':
        return <div key={c.id}>{kids.map((k) => box(k, parentCols))}</div>;
      case 'HEADER':
        return <div key={c.id} className={classes.thumbHeader} />;
      case 'DIVIDER':
        return <div key={c.id} className={classes.thumbDivider} />;
      case 'MARKDOWN':
        return <div key={c.id} className={classes.thumbMarkdown} style={{ width: span(cols, parentCols), height: h }} />;
      case 'CHART':
        return <div key={c.id} className={classes.thumbChart} style={{ width: span(cols, parentCols), height: h }} title={String(c.meta?.sliceName ?? '')} />;
      default:
        return null;
    }
  };
  const grid = layout[GRID_ID];
  const empty = !grid || !grid.children.length;
  return (
    <div ref={ref} className={classes.thumb} style={{ height }} data-testid="dashboard-thumbnail" aria-hidden>
      {empty ? <div className={classes.thumbEmpty}>Empty dashboard</div> : scale > 0 && grid.children.map((id) => layout[id] && box(layout[id]!))}
    </div>
  );
}
