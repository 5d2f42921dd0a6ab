import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipFiles } from '../../server/src/common/zip';

/** A dashboard export written by hand in Superset's ImportExport v1 layout (see its README). */
export const SUPERSET_DASHBOARD_EXPORT = join(__dirname, '../fixtures/superset-dashboard-export');

/** A chart export (metadata type Slice) written by hand in Superset's ImportExport v1 layout (see its README). */
export const SUPERSET_CHART_EXPORT = join(__dirname, '../fixtures/superset-chart-export');

/** The dashboard fixture as a zip under one root folder, as Superset writes it, with files replaced (text) or left out (null). */
export function supersetDashboardZip(changes: Record<string, string | null> = {}): Buffer {
  return exportZip(SUPERSET_DASHBOARD_EXPORT, 'dashboard_export_20240502T091421', changes);
}

/** The chart fixture as a zip, as the chart list's Export writes it. */
export function supersetChartZip(changes: Record<string, string | null> = {}): Buffer {
  return exportZip(SUPERSET_CHART_EXPORT, 'chart_export_20240917T140233', changes);
}

function exportZip(fixture: string, root: string, changes: Record<string, string | null>): Buffer {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.yaml')) files[relative(fixture, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(fixture);
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) delete files[path];
    else files[path] = text;
  }
  return zipFiles(Object.fromEntries(Object.entries(files).map(([p, t]) => [`${root}/${p}`, t])));
}
