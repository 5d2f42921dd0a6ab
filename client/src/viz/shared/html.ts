import DOMPurify from 'dompurify';

/**
 * HTML in chart cells, as Superset's table renders it with 'Render columns in HTML format' (allow_render_html): a
 * string that is probably HTML is drawn as HTML once sanitized; anything else stays text. Never unsanitized.
 */

/** Superset's hasHtmlTagPattern: the opening of a tag HTML content usually has (`<div`, `<a`, `<p`, `<span`...). */
export function hasHtmlTagPattern(text: string): boolean {
  return /<(html|head|body|div|span|a|p|h[1-6]|title|meta|link|script|style)/i.test(text);
}

/** The tags whose elements make a string HTML (Superset's list): `<abcdef:12345>` or `<a1>` are text. */
const KNOWN_TAGS = new Set([
  'div', 'span', 'p', 'a', 'b', 'i', 'u', 'em', 'strong', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'td', 'th', 'tbody', 'thead',
  'tfoot', 'ul', 'ol', 'li', 'img', 'br', 'hr', 'pre', 'code', 'blockquote', 'section', 'article', 'nav', 'header', 'footer', 'form',
  'input', 'button', 'select', 'option', 'textarea', 'label', 'fieldset', 'legend', 'video', 'audio', 'canvas', 'iframe', 'script',
  'style', 'link', 'meta', 'title',
]);

/**
 * Superset's isProbablyHTML: a document (`<!doctype html>`), or a string with a common tag's opening that the browser
 * parses into at least one element of a known tag in its body. Needs the browser's DOMParser.
 */
export function isProbablyHtml(text: string): boolean {
  const cleaned = text.trim().toLowerCase();
  if (cleaned.startsWith('<!doctype html>') && hasHtmlTagPattern(cleaned)) return true;
  if (!hasHtmlTagPattern(text)) return false;
  const doc = new DOMParser().parseFromString(cleaned, 'text/html');
  return Array.from(doc.body.children).some((element) => KNOWN_TAGS.has(element.tagName.toLowerCase()));
}

// Links may open in a new tab (Superset's sanitizer keeps `target`), never with a handle on this page. (Outside a
// browser DOMPurify has no hooks and sanitizes nothing: safeHtml then throws rather than pass HTML through.)
if (DOMPurify.isSupported) {
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('target')) node.setAttribute('rel', 'noopener noreferrer');
  });
}

const sanitized = new Map<string, string>();

/**
 * The string as safe HTML (DOMPurify: no scripts, event handlers or `javascript:` links; styles and links kept), or
 * null when it is not HTML and is drawn as text. Answers are remembered: a table asks again on every draw.
 */
export function safeHtml(text: string): string | null {
  let html = sanitized.get(text);
  if (html === undefined) {
    html = isProbablyHtml(text) ? DOMPurify.sanitize(text, { ADD_ATTR: ['target'] }) : '\u0000';
    if (sanitized.size > 5000) sanitized.clear();
    sanitized.set(text, html);
  }
  return html === '\u0000' ? null : html;
}
