import pino, { type Logger } from 'pino';

/** pino: pretty in a terminal, JSON otherwise (and always JSON in production). */
export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  return pino({
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  });
}
export type { Logger };
