import type { Logger } from './logger';

/**
 * Stops the process gracefully on SIGINT/SIGTERM: `close` finishes in-flight work (it stops running
 * queries once the grace period is over); should anything still hang (a driver that ignores
 * cancellation), the process exits anyway a little later.
 */
export function exitOnSignals(opts: { logger: Logger; graceSeconds: number; close: () => Promise<void> }): void {
  const { logger, graceSeconds } = opts;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceSeconds }, 'shutting down: finishing in-flight requests and queries');
    setTimeout(() => {
      logger.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, (graceSeconds + 15) * 1000).unref();
    let code = 0;
    try {
      await opts.close();
    } catch (err) {
      logger.error({ err }, 'error while shutting down');
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
