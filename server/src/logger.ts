import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * What a log line never shows: credentials in request headers, and passwords, tokens and connection URIs wherever
 * an object carrying them is logged (a database's URI may hold its password).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-guesttoken"]',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  'password',
  'sqlalchemy_uri',
  '*.password',
  '*.password_encrypted',
  '*.sqlalchemy_uri',
  '*.access_token',
  '*.refresh_token',
  '*.guest_token',
  '*.token',
  '*.secretKey',
  '*.smtp.password',
];

/** pino: pretty in a terminal, JSON otherwise (and always JSON in production); `destination` for tests. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const pretty = !destination && process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
