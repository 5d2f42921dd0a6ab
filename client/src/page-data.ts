/**
 * The data the server writes into the page (server/src/page/index-page.ts), as Superset writes its bootstrap data:
 * the bootstrap, the session's CSRF token and, on Explore, its bootstrap answer. Each piece is taken once, for the
 * page's first use: later uses (after login, a reopened chart) call the server as before.
 */
interface PageData {
  bootstrap?: unknown;
  csrfToken?: string | null;
  explore?: { params: Record<string, unknown>; result: unknown };
}

let data: PageData | null = null;
const read = (): PageData => {
  if (data) return data;
  try {
    data = JSON.parse(document.getElementById('meridian-page-data')?.textContent || '{}') as PageData;
  } catch {
    data = {};
  }
  return data;
};

function take<K extends keyof PageData>(key: K): PageData[K] {
  const value = read()[key];
  delete read()[key];
  return value;
}

/** Forgets what the page came with: after a login or logout it is another session's. */
export function forgetPageData(): void {
  data = {};
}

/** The bootstrap as the page was served (the security.bootstrap answer), once. */
export const takePageBootstrap = () => take('bootstrap');

/** The session's CSRF token as the page was served, once. */
export const takePageCsrfToken = () => take('csrfToken') ?? null;

const defined = (params: Record<string, unknown>) =>
  JSON.stringify(Object.entries(params).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => a.localeCompare(b)));

/** Explore's bootstrap answer written into the page, once, when it was made for these same parameters. */
export function takePageExplore(params: Record<string, unknown>): unknown {
  const explore = read().explore;
  if (!explore || defined(explore.params) !== defined(params)) return undefined;
  return take('explore')!.result;
}
