import { getCsrfToken } from '../api';
import type { QueryContext } from '../viz/types';

// Downloads of a chart or a dashboard, shared by Explore's and the dashboard's menus: the chart's data as
// CSV or XLSX (the server writes it), and what is on screen as PNG or PDF (drawn in the browser).

/** A file name without the characters file systems refuse. */
export function fileName(name: string, extension: string): string {
  return `${(name.trim() || 'chart').replace(/[\\/:*?"<>|]+/g, '_')}.${extension}`;
}

function save(href: string, name: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
}

/** Saves data made in the browser (or answered by the server) as a file. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  save(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `POST /api/v1/chart/data` with the file format asked for; the answer is saved as `<name>.<format>`. */
export async function downloadChartData(context: QueryContext | Record<string, any>, format: 'csv' | 'xlsx' | 'json', name: string, sliceId?: number | null): Promise<void> {
  const token = await getCsrfToken();
  const query = sliceId ? `?form_data=${encodeURIComponent(JSON.stringify({ slice_id: sliceId }))}` : '';
  const res = await fetch(`/api/v1/chart/data${query}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'X-CSRFToken': token } : {}) },
    body: JSON.stringify({ ...context, result_format: format, result_type: 'full' }),
  });
  if (!res.ok) throw new Error(`${res.status}`);
  saveBlob(await res.blob(), fileName(name, format));
}

/** The element drawn to a PNG data URL, on the page's own background (canvas charts and DOM charts alike). */
async function toPng(element: HTMLElement): Promise<string> {
  // Loaded on first use: most visits never download an image.
  const { toPng: draw } = await import('html-to-image');
  const background = getComputedStyle(document.body).backgroundColor;
  return draw(element, { backgroundColor: background, pixelRatio: Math.min(window.devicePixelRatio || 1, 2), cacheBust: true, skipFonts: true });
}

/** Charts reach one of these once drawn for good (data-chart-state). */
const DRAWN_STATES = ['rendered', 'failed'];

/** Resolves once every chart inside the element is drawn (or failed); rejects after `timeoutMs`. */
export function chartsDrawn(element: HTMLElement, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      const states = [...element.querySelectorAll('[data-chart-state]')].map((c) => c.getAttribute('data-chart-state') ?? '');
      if (states.every((s) => DRAWN_STATES.includes(s))) resolve();
      else if (performance.now() > deadline) reject(new Error('charts not drawn in time'));
      else setTimeout(check, 100);
    };
    setTimeout(check, 100);
  });
}

/** Saves what the element shows as `<name>.png`. */
export async function downloadAsImage(element: HTMLElement, name: string): Promise<void> {
  save(await toPng(element), fileName(name, 'png'));
}

/** Saves what the element shows as `<name>.pdf`: one page, the element's aspect ratio kept. */
export async function downloadAsPdf(element: HTMLElement, name: string): Promise<void> {
  const [png, { jsPDF }] = await Promise.all([toPng(element), import('jspdf')]);
  const { width, height } = element.getBoundingClientRect();
  const pdf = new jsPDF({ orientation: width >= height ? 'landscape' : 'portrait', unit: 'px', format: [width, height], hotfixes: ['px_scaling'] });
  pdf.addImage(png, 'PNG', 0, 0, width, height);
  pdf.save(fileName(name, 'pdf'));
}

/** A mail to nobody in particular with the link in its body (Superset's "Share … by email"). */
export function shareByEmailHref(subject: string, body: string, link: string): string {
  return `mailto:?Subject=${encodeURIComponent(subject)}&Body=${encodeURIComponent(`${body}${link}`)}`;
}
