import { createHash } from 'node:crypto';

/** Headers every answer carries: no MIME sniffing, and no full addresses leaked to other sites. */
export const COMMON_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/** The `'sha256-…'` sources of a page's inline scripts (the colour-scheme script of index.html), so no 'unsafe-inline' is needed. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy of Meridian's pages (Superset's TALISMAN_CONFIG in spirit): scripts only from this
 * origin and the hashed inline script, no plugins, styles inline (Mantine and ECharts set them), pictures and
 * workers also from blob: and data: (downloads, the SQL editor's workers), and framing only by `frameAncestors`.
 */
export function contentSecurityPolicy(opts: { scriptHashes: string[]; connect: string[]; frameAncestors: string[] }): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${opts.scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${opts.connect.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${opts.frameAncestors.length ? opts.frameAncestors.join(' ') : "'self'"}`,
  ].join('; ');
}
