import { Parser } from 'htmlparser2';
import { micromark } from 'micromark';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';

/** Superset's `safe_markdown_tags` (superset/utils/core.py `markdown`): every other tag is taken out, its text kept. */
const SAFE_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'b', 'i', 'strong', 'em', 'tt', 'p', 'br', 'span', 'div', 'blockquote', 'code', 'hr', 'ul', 'ol', 'li', 'dd', 'dt', 'img', 'a']);
/** Superset's `safe_markdown_attrs`: no other attribute survives. */
const SAFE_ATTRS: Record<string, ReadonlySet<string>> = { img: new Set(['src', 'alt', 'title']), a: new Set(['href', 'alt', 'title']) };
/** nh3's `clean_content_tags`: taken out with everything inside them. */
const DROPPED_WITH_CONTENT = new Set(['script', 'style']);
const VOID = new Set(['br', 'hr', 'img']);
/** The URL schemes nh3 (ammonia) keeps in a link or image; relative URLs are kept too. */
const URL_SCHEMES = new Set(['bitcoin', 'ftp', 'ftps', 'geo', 'http', 'https', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'mms', 'mx', 'news', 'nntp', 'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'url', 'webcal', 'wtai', 'xmpp']);

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/"/g, '&quot;');

/** Whether a URL may stay: relative, or of an allowed scheme (tabs and newlines inside it do not hide a scheme). */
function safeUrl(value: string): boolean {
  const url = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1];
  return !scheme || URL_SCHEMES.has(scheme.toLowerCase());
}

/**
 * HTML cleaned as Superset cleans its markdown's (nh3 with the safe tags and attributes): the output is written
 * anew from the parsed tags, so only allowed tags and attributes, escaped, ever reach it; links get
 * `rel="noopener noreferrer"`, and comments, scripts and styles go.
 */
function clean(html: string): string {
  let out = '';
  let dropping = 0;
  const open: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (DROPPED_WITH_CONTENT.has(name)) dropping++;
        if (dropping || !SAFE_TAGS.has(name)) return;
        const allowed = SAFE_ATTRS[name];
        let tag = `<${name}`;
        for (const [key, value] of Object.entries(attrs)) {
          if (!allowed?.has(key)) continue;
          if ((key === 'href' || key === 'src') && !safeUrl(value)) continue;
          tag += ` ${key}="${escapeAttr(value)}"`;
        }
        if (name === 'a') tag += ' rel="noopener noreferrer"';
        out += `${tag}>`;
        if (!VOID.has(name)) open.push(name);
      },
      ontext(text) {
        if (!dropping) out += escapeText(text);
      },
      onclosetag(name) {
        if (DROPPED_WITH_CONTENT.has(name)) {
          dropping = Math.max(0, dropping - 1);
          return;
        }
        if (dropping || VOID.has(name) || open[open.length - 1] !== name) return;
        open.pop();
        out += `</${name}>`;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

/**
 * Superset's `markdown(raw)`: the text rendered as markdown (with tables), then cleaned to its safe tags and
 * attributes. Raw HTML in the text is kept only where those allow it. Empty text gives ''.
 *
 * @example markdown('Who *was* born') // '<p>Who <em>was</em> born</p>'
 */
export function markdown(raw: string | null | undefined): string {
  if (!raw) return '';
  const html = micromark(raw, { allowDangerousHtml: true, allowDangerousProtocol: true, extensions: [gfmTable()], htmlExtensions: [gfmTableHtml()] });
  return clean(html);
}
