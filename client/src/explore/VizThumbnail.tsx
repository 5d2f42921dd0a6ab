import type { ChartMeta } from '../viz/types';
import classes from './explore.module.css';

/** A chart type's thumbnail: our own inline SVG drawing, declared by the type. */
export function VizThumbnail({ plugin, size = 64 }: { plugin: ChartMeta; size?: number }) {
  return <div className={classes.thumbnail} style={{ width: size, height: (size * 40) / 64 }} aria-hidden dangerouslySetInnerHTML={{ __html: plugin.thumbnail }} />;
}
