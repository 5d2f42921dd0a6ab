import type { Transporter } from 'nodemailer';
import type { Config } from '../config';

/** What a report run sends: the same content goes to every recipient, each in its own form. */
export interface ReportContent {
  name: string;
  description: string | null;
  /** Subject line (email_subject, else "[Meridian] name"). */
  subject: string;
  /** The chart or dashboard this report shows, on the user-friendly address. */
  url: string;
  /** For an alert that fired: what its query returned. */
  alertValue?: number | null;
  images?: Buffer[];
  files?: Array<{ filename: string; contentType: string; content: Buffer }>;
  /** TEXT reports: the chart's first rows. */
  table?: { columns: string[]; rows: unknown[][] };
  /** An error notice to owners instead of content. */
  error?: string;
}

export interface Recipient {
  type: string;
  config: { target?: string; ccTarget?: string; bccTarget?: string };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const list = (text: string | undefined) => (text ?? '').split(/[,;]/).map((x) => x.trim()).filter(Boolean);

/** A fixed-width text table (Slack and webhooks show it in a code block, email as plain text). */
export function textTable(table: { columns: string[]; rows: unknown[][] }): string {
  const cells = [table.columns, ...table.rows.map((r) => r.map(cell))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join(' | ').trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.slice(1).map(line)].join('\n');
}

function htmlTable(table: { columns: string[]; rows: unknown[][] }): string {
  const head = table.columns.map((c) => `<th style="border:1px solid #ccc;padding:4px 8px;text-align:left">${escapeHtml(c)}</th>`).join('');
  const body = table.rows.map((r) => `<tr>${r.map((v) => `<td style="border:1px solid #ccc;padding:4px 8px">${escapeHtml(cell(v))}</td>`).join('')}</tr>`).join('');
  return `<table style="border-collapse:collapse"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The lines every form of the message starts with. */
function summary(content: ReportContent): string[] {
  const lines = [content.subject];
  if (content.error) lines.push(`Error: ${content.error}`);
  if (content.description) lines.push(content.description);
  if (content.alertValue !== undefined) lines.push(`Alert value: ${content.alertValue ?? 'null'}`);
  return lines;
}

/**
 * Sends reports: email through SMTP (nodemailer; images inline, CSV/PDF attached) and JSON POSTs to webhooks
 * (Slack's incoming-webhook shape: `text` and `blocks`; Webhook recipients also get the files, base64).
 */
export class ReportNotifier {
  private transport: Transporter | null = null;

  constructor(private readonly config: Pick<Config, 'smtp'>) {}

  async send(recipient: Recipient, content: ReportContent): Promise<void> {
    switch (recipient.type) {
      case 'Email':
        return this.email(recipient.config, content);
      case 'Slack':
      case 'SlackV2':
      case 'Webhook':
        return this.webhook(recipient.type, recipient.config.target ?? '', content);
      default:
        throw new Error(`Unknown recipient type ${recipient.type}`);
    }
  }

  private async email(config: Recipient['config'], content: ReportContent): Promise<void> {
    const to = list(config.target);
    if (!to.length) throw new Error('No email address to send to');
    const smtp = this.config.smtp;
    // Loaded when the first email goes: most processes never send one.
    const { createTransport } = await import('nodemailer');
    this.transport ??= createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.ssl,
      requireTLS: smtp.starttls,
      ignoreTLS: !smtp.starttls && !smtp.ssl,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: 30_000,
      socketTimeout: 60_000,
    });
    const images = (content.images ?? []).map((png, i) => ({ filename: `${i + 1}.png`, content: png, cid: `report-image-${i + 1}` }));
    const html = [
      content.error ? `<p><b>Error:</b> ${escapeHtml(content.error)}</p>` : '',
      content.description ? `<p>${escapeHtml(content.description)}</p>` : '',
      content.alertValue !== undefined ? `<p>Alert value: ${escapeHtml(String(content.alertValue ?? 'null'))}</p>` : '',
      `<p><a href="${escapeHtml(content.url)}">Explore in Meridian</a></p>`,
      content.table ? htmlTable(content.table) : '',
      ...images.map((img) => `<p><img src="cid:${img.cid}" alt="${escapeHtml(content.name)}"></p>`),
    ].join('');
    const text = [...summary(content), content.url, content.table ? textTable(content.table) : ''].filter(Boolean).join('\n\n');
    await this.transport.sendMail({
      from: smtp.from,
      to,
      cc: list(config.ccTarget),
      bcc: list(config.bccTarget),
      subject: content.subject,
      html,
      text,
      attachments: [...images, ...(content.files ?? []).map((f) => ({ filename: f.filename, content: f.content, contentType: f.contentType }))],
    });
  }

  private async webhook(type: string, target: string, content: ReportContent): Promise<void> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new Error(`Not a webhook address: ${target}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Not a webhook address: ${target}`);
    const text = [...summary(content).map((l, i) => (i === 0 ? `*${l}*` : l)), `<${content.url}|Explore in Meridian>`].join('\n');
    const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text } }];
    if (content.table) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`\n${textTable(content.table)}\n\`\`\`` } });
    const body: Record<string, unknown> = { text, blocks };
    if (type === 'Webhook') {
      body.report = { name: content.name, description: content.description, url: content.url, alert_value: content.alertValue, error: content.error ?? null };
      body.files = [
        ...(content.images ?? []).map((png, i) => ({ filename: `${i + 1}.png`, content_type: 'image/png', content_base64: png.toString('base64') })),
        ...(content.files ?? []).map((f) => ({ filename: f.filename, content_type: f.contentType, content_base64: f.content.toString('base64') })),
      ];
    }
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`${url.host} answered ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`.trim());
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}
