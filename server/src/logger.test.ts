import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

describe('the logger', () => {
  it('redacts passwords, connection URIs, tokens and credential headers wherever they are logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.info({ password: 'p1', database: { sqlalchemy_uri: 'postgresql://u:p2@h/d', password: 'p3' }, req: { headers: { authorization: 'Bearer t1', cookie: 'session=c1' } }, body: { access_token: 't2' } }, 'call');
    const [line] = lines;
    expect(JSON.parse(line)).toMatchObject({ password: '[redacted]', database: { sqlalchemy_uri: '[redacted]', password: '[redacted]' }, req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } }, body: { access_token: '[redacted]' } });
  });
});
