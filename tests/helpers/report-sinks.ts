import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server that keeps every message it is sent, parsed (mailparser). */
export async function startSmtpSink(): Promise<{ port: number; mails: ParsedMail[]; close: () => Promise<void> }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream, { skipImageLinks: true }).then((mail) => {
        mails.push(mail);
        done();
      }, done);
    },
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** A local webhook receiver: keeps each JSON body POSTed to it; paths starting /fail answer 500. */
export async function startWebhookSink(): Promise<{ url: string; posts: Array<{ path: string; body: any }>; close: () => Promise<void> }> {
  const posts: Array<{ path: string; body: any }> = [];
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/fail')) {
        res.writeHead(500).end('receiver is down');
        return;
      }
      posts.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, posts, close: () => new Promise<void>((done) => server.close(() => done())) };
}
