import { getCsrfToken } from '../api';
import type { ChartPlugin, FormData, QueryContext } from '../viz/types';

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

/**
 * A chart's query as a download asks it: its form data says the file format (and a JSON download its 'results'
 * type), which Superset's buildQuery reads; a server-paginated table exports all its rows, not the page shown.
 */
export function exportQuery(plugin: Pick<ChartPlugin, 'buildQuery'>, formData: FormData, format: 'csv' | 'xlsx' | 'json'): QueryContext {
  return plugin.buildQuery({ ...formData, result_format: format, ...(format === 'json' ? { result_type: 'results' } : {}) });
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

/** The height of the band a chart's picture starts with, holding its title (Superset pictures the chart's header). */
export const TITLE_BAND = 40;

/** Marks a box scrolled on screen, with its scroll offsets, for the copy the picture is drawn from. */
const SCROLLED = 'data-image-scroll';
/** Marks a box of table rows whose bottom edge cuts a row, with the height its whole rows take. */
const WHOLE_ROWS = 'data-image-rows';

/** Marks the element's scrolled boxes, and its boxes of rows cut at the bottom, for `showScrolled`; returns the unmarking. */
function markScrolled(element: HTMLElement): () => void {
  const marked: HTMLElement[] = [];
  for (const box of element.querySelectorAll<HTMLElement>('*')) {
    if (box.scrollTop > 0 || box.scrollLeft > 0) {
      box.setAttribute(SCROLLED, `${box.scrollTop},${box.scrollLeft}`);
      marked.push(box);
    }
    if (box.scrollHeight <= box.clientHeight) continue;
    const { top, bottom } = box.getBoundingClientRect();
    const cut = [...box.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect()).find((r) => r.top < bottom && r.bottom > bottom + 0.5);
    if (cut) {
      box.setAttribute(WHOLE_ROWS, String(Math.max(0, cut.top - top)));
      marked.push(box);
    }
  }
  return () => marked.forEach((box) => (box.removeAttribute(SCROLLED), box.removeAttribute(WHOLE_ROWS)));
}

/**
 * The copy html-to-image draws is never scrolled: a scrolled box showed its top (a virtualised table, blank spacer
 * rows under its header) with scroll bars cutting its edge. In the copy, each scrolled box's content is moved by
 * its scroll offsets and its sticky parts (a table's header) moved back, every scroll box loses its scroll bars,
 * and a box of table rows ends at its last whole row.
 */
function showScrolled(svg: string): string {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  for (const box of doc.querySelectorAll<HTMLElement>('*')) {
    const style = box.style as CSSStyleDeclaration | undefined;
    if (!style || !/auto|scroll/.test(`${style.overflow} ${style.overflowX} ${style.overflowY}`)) continue;
    style.overflow = 'hidden';
    const rows = box.getAttribute(WHOLE_ROWS);
    if (rows !== null) style.clipPath = `polygon(0 0, 100% 0, 100% ${rows}px, 0 ${rows}px)`;
    const [top = 0, left = 0] = (box.getAttribute(SCROLLED) ?? '').split(',').map(Number);
    if (!top && !left) continue;
    for (const child of box.children as HTMLCollectionOf<HTMLElement>) {
      if (child.style.position !== 'sticky') child.style.translate = `${-left}px ${-top}px`;
    }
    for (const sticky of box.querySelectorAll<HTMLElement>('*')) {
      if (sticky.style.position === 'sticky' && sticky.parentElement !== box) sticky.style.translate = `${left}px ${top}px`;
    }
  }
  return new XMLSerializer().serializeToString(doc);
}

/**
 * The element drawn to a PNG data URL, on the page's own background (canvas charts and DOM charts alike), scrolled
 * boxes as they are on screen; with a title, a band above holds it, as Superset's picture of a chart shows its header.
 */
async function toPng(element: HTMLElement, title?: string): Promise<string> {
  // Loaded on first use: most visits never download an image.
  const { toSvg } = await import('html-to-image');
  const background = getComputedStyle(document.body).backgroundColor;
  const unmark = markScrolled(element);
  let svg: string;
  try {
    // The copy keeps no margin: the element's own drew it shifted right and cut at its right edge.
    svg = await toSvg(element, { cacheBust: true, skipFonts: true, style: { margin: '0' } });
  } finally {
    unmark();
  }
  const prefix = svg.slice(0, svg.indexOf(',') + 1);
  const image = new Image();
  image.src = prefix + encodeURIComponent(showScrolled(decodeURIComponent(svg.slice(prefix.length))));
  await image.decode();
  const { width, height } = element.getBoundingClientRect();
  const band = title === undefined ? 0 : TITLE_BAND;
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round((height + band) * ratio);
  const g = canvas.getContext('2d')!;
  g.scale(ratio, ratio);
  g.fillStyle = background;
  g.fillRect(0, 0, width, height + band);
  g.drawImage(image, 0, band, width, height);
  if (band) {
    const body = getComputedStyle(document.body);
    g.fillStyle = body.color;
    g.font = `600 16px ${body.fontFamily}`;
    g.textBaseline = 'middle';
    g.fillText(fitted(g, title!.trim() || 'chart', width - 24), 12, band / 2);
  }
  return canvas.toDataURL('image/png');
}

/** The text cut with an ellipsis to fit the width, as a long chart title is in its header. */
function fitted(g: CanvasRenderingContext2D, text: string, width: number): string {
  if (g.measureText(text).width <= width) return text;
  let cut = text;
  while (cut && g.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
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

/**
 * Saves what the element shows as `<name>.png`; `title` (a chart's) is written in a band above it.
 *
 * @example downloadAsImage(chartBox, 'Births by gender', { title: 'Births by gender' })
 */
export async function downloadAsImage(element: HTMLElement, name: string, { title }: { title?: string } = {}): Promise<void> {
  save(await toPng(element, title), fileName(name, 'png'));
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
