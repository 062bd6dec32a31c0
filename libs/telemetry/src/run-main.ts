import { createLogger } from './logger.ts';
import { runExitHooks } from './shutdown-hooks.ts';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * The entry point of every process: starts it, and on SIGINT/SIGTERM stops it (draining in-flight
 * work) before exiting. A failure to start exits non-zero with the reason in the log.
 */
export function runMain(name: string, start: () => Promise<Stoppable>): void {
  const log = createLogger(name);
  let stopping = false;
  start().then(
    (running) => {
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        log.info({ signal }, 'stopping');
        const force = setTimeout(() => process.exit(1), 15_000);
        force.unref();
        running
          .stop()
          .then(
            () => 0,
            (err) => {
              log.error({ err }, 'stop failed');
              return 1;
            },
          )
          .then(async (code) => {
            await runExitHooks();
            process.exit(code);
          });
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
    },
    (err) => {
      log.fatal({ err }, 'failed to start');
      process.exit(1);
    },
  );
}
