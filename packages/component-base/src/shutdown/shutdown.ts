// Graceful shutdown: on SIGTERM / SIGINT run the registered steps in order, once, then exit.
import type { Logger } from '../logs/index.js';

export type ShutdownStep = () => Promise<void> | void;

export function onShutdown(log: Logger, steps: ShutdownStep[], timeoutMs = 30_000): void {
  let started = false;
  const run = async (signal: string): Promise<void> => {
    if (started) {
      log.warn('second signal, exiting now', { signal });
      process.exit(1);
    }
    started = true;
    log.info('shutting down', { signal });
    const timer = setTimeout(() => {
      log.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        log.error('shutdown step failed', { err });
      }
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void run('SIGTERM'));
  process.on('SIGINT', () => void run('SIGINT'));
}
